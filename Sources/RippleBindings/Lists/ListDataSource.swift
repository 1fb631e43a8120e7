import Ripple
import RippleModels

/// The platform-neutral heart of a table or collection view bound to Ripple data: sections of
/// items from a Ripple value, the batches of changes the view animates, selection kept in
/// sync with a model value, and the user's moves and deletions written back to the source
/// (Fisticuffs' `b_configure`).
///
/// ```swift
/// let days = Stored(["Sunday", "Monday", "Tuesday"].map(Day.init))
/// let dataSource = ListDataSource(items: days)
/// dataSource.allowsMoving = true
/// dataSource.allowsDeletion = true
/// dataSource.connect { update in
///     tableView.performBatchUpdates { tableView.apply(update) }
/// }
/// days.value.append(Day("Wednesday"))        // the table view animates one insertion
/// ```
///
/// The UIKit and AppKit adapters wrap one for `UITableView`, `UICollectionView` and
/// `NSTableView`; everything they do is here and tested on Linux.
///
/// **What the view is told.** The data source keeps the list the view shows: the view's
/// data-source methods read it (``numberOfSections``, ``numberOfItems(inSection:)``,
/// ``item(at:)``), and each change of the source reaches the view as one ``ListUpdate``
/// from that list to the new one, on the data source's scheduler (the main actor for the
/// adapters). Changes that arrive faster than the scheduler runs are combined into one
/// update. An update never reports what the view did itself: a user's move or deletion is
/// applied to the shown list and written to the source, and the source's change then brings
/// nothing new.
///
/// **Selection** is a set of item ids (or one id) in a model value, so it follows items
/// through moves; items deleted from the list leave the selection. Items that
/// ``canSelectItem`` refuses cannot be selected.
public final class ListDataSource<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// A section of this data source.
    public typealias Section = ListSection<SectionID, Item>

    private let source: any ObservableValue<[Section]> & Sendable
    let _writableSource: ValueBinding<[Section]>?
    private let scheduler: BindingScheduler
    private let isUpdated: (@Sendable (Item, Item) -> Bool)?
    let _state: _Box<_ListState<SectionID, Item>>

    /// Sent when the user selects an item.
    public let didSelect = Event<Item>()
    /// Sent when the user deselects an item (single selection: also the item a new
    /// selection replaced).
    public let didDeselect = Event<Item>()

    /// Creates a data source over read-only sections.
    ///
    /// - Parameters:
    ///   - sections: The sections to show.
    ///   - scheduler: Where the view is told of changes: ``BindingScheduler/immediate`` by
    ///     default, the main actor for the adapters.
    ///   - isUpdated: Whether an item's content changed (the item is reloaded); `nil` for
    ///     never.
    public init(
        sections: some ObservableValue<[Section]> & Sendable,
        on scheduler: BindingScheduler = .immediate,
        isUpdated: (@Sendable (Item, Item) -> Bool)? = nil
    ) {
        source = sections
        _writableSource = nil
        self.scheduler = scheduler
        self.isUpdated = isUpdated
        _state = _Box(_ListState(displayed: untracked { sections.value }))
    }

    /// Creates a data source over sections that the user's moves and deletions are written to.
    ///
    /// - Parameters:
    ///   - sections: The sections to show and edit.
    ///   - scheduler: Where the view is told of changes.
    ///   - isUpdated: Whether an item's content changed; `nil` for never.
    public init(
        sections: ValueBinding<[Section]>,
        on scheduler: BindingScheduler = .immediate,
        isUpdated: (@Sendable (Item, Item) -> Bool)? = nil
    ) {
        source = sections
        _writableSource = sections
        self.scheduler = scheduler
        self.isUpdated = isUpdated
        _state = _Box(_ListState(displayed: untracked { sections.value }))
    }

    /// Creates a data source over stored sections, which the user's moves and deletions are
    /// written to: the initializer that takes a `ValueBinding`, given `ValueBinding(sections)`.
    ///
    /// - Parameters:
    ///   - sections: The sections to show and edit.
    ///   - scheduler: Where the view is told of changes.
    ///   - isUpdated: Whether an item's content changed; `nil` for never.
    public convenience init(
        sections: Stored<[Section]>,
        on scheduler: BindingScheduler = .immediate,
        isUpdated: (@Sendable (Item, Item) -> Bool)? = nil
    ) {
        self.init(sections: ValueBinding(sections), on: scheduler, isUpdated: isUpdated)
    }

    // MARK: Configuration

    /// Whether the user may move items (``userDidMove(from:to:)``). Requires a writable
    /// source. `false` by default.
    public var allowsMoving: Bool {
        get { _state.value.allowsMoving }
        set { _state.modify { $0.allowsMoving = newValue } }
    }

    /// Whether the user may delete items (``userDidDelete(at:)``). Requires a writable source.
    /// `false` by default.
    public var allowsDeletion: Bool {
        get { _state.value.allowsDeletion }
        set { _state.modify { $0.allowsDeletion = newValue } }
    }

    /// Which items the user may select; all by default.
    public var canSelectItem: @Sendable (Item) -> Bool {
        get { _state.value.canSelect }
        set { _state.modify { $0.canSelect = newValue } }
    }

    /// Whether the source can take the user's edits.
    public var isEditable: Bool { _writableSource != nil }

    // MARK: Connecting a view

    /// Starts telling a view of changes: from now on, each change of the source reaches
    /// `update`, and each change of the selection (or of the selected items' positions)
    /// reaches `selection` with the positions to show selected.
    ///
    /// The view should reload its data right after connecting: the list it is told about
    /// starts with the source's current value. Connecting again replaces the connection.
    ///
    /// - Parameters:
    ///   - update: Applies one batch of changes to the view.
    ///   - selection: Selects exactly these positions in the view.
    /// - Returns: The connection; cancel it to stop. The data source keeps it alive.
    @discardableResult
    public func connect(
        update: @escaping @Sendable (ListUpdate) -> Void,
        selection: (@Sendable (_ selected: [ListIndex]) -> Void)? = nil
    ) -> Subscription {
        let source = self.source
        // Each connection has an id: what a cancelled or replaced one still had on its way to
        // the scheduler shows nothing (and leaves the shown list alone).
        let id = _state.modify { state -> UInt64 in
            state.displayed = untracked { source.value }
            state.connections &+= 1
            state.liveConnection = state.connections
            return state.connections
        }
        let latest = _LatestValue<[Section]>(scheduler: scheduler) { [weak self] sections in
            self?.show(sections, connection: id, update: update, selection: selection)
        }
        let selectionLatest = _LatestValue<Void>(scheduler: scheduler) { [weak self] in
            guard let self, _state.value.liveConnection == id else { return }
            selection?(selectedIndices)
        }
        let state = _state
        let selectionBinding = _state.value.selection
        let connection = withoutOwner {
            let items = observe { latest.send(source.value) }
            let selected = selectionBinding.map { binding in
                observe {
                    _ = binding.ids
                    selectionLatest.send(())
                }
            }
            return Subscription { [weak state] in
                items.cancel()
                selected?.cancel()
                state?.modify { if $0.liveConnection == id { $0.liveConnection = 0 } }
            }
        }
        let previous = _state.modify { state in
            defer { state.connection = connection }
            return state.connection
        }
        previous?.cancel()
        return connection
    }

    /// Shows `sections`: the update from the shown list, the selection pruned of deleted
    /// items, then the view told.
    private func show(
        _ sections: [Section],
        connection: UInt64,
        update: @Sendable (ListUpdate) -> Void,
        selection: (@Sendable ([ListIndex]) -> Void)?
    ) {
        let isUpdated = self.isUpdated
        let shown = _state.modify { state -> (ListUpdate, Set<Item.ID>, _ListSelection<Item.ID>?)? in
            guard state.liveConnection == connection else { return nil }
            let changes = _listUpdate(from: state.displayed, to: sections, isUpdated: isUpdated)
            let deleted = changes.isEmpty ? [] : _removedIDs(from: state.displayed, to: sections, changes: changes)
            state.displayed = sections
            return (changes, deleted, state.selection)
        }
        guard let shown, !shown.0.isEmpty else { return }
        let (changes, deleted, selectionBinding) = shown
        if !deleted.isEmpty { selectionBinding?.remove(deleted) }
        update(changes)
        selection?(selectedIndices)
    }

    // MARK: The shown list

    /// The number of sections the view shows.
    public var numberOfSections: Int { _state.value.displayed.count }

    /// The number of items in `section`.
    ///
    /// - Precondition: `section` is in range.
    public func numberOfItems(inSection section: Int) -> Int {
        let displayed = _state.value.displayed
        guard displayed.indices.contains(section) else {
            _bindingsFailure(
                "ListDataSource.numberOfItems(inSection: \(section)): the list has \(displayed.count) sections.")
        }
        return displayed[section].items.count
    }

    /// The item at `index`.
    ///
    /// - Precondition: `index` is in range.
    public func item(at index: ListIndex) -> Item {
        let displayed = _state.value.displayed
        guard displayed.indices.contains(index.section), displayed[index.section].items.indices.contains(index.item)
        else {
            _bindingsFailure(
                "ListDataSource.item(at: \(index)): no such item; the list has \(displayed.count) sections with \(displayed.map(\.items.count)) items."
            )
        }
        return displayed[index.section].items[index.item]
    }

    /// The identity of the section at `section`.
    public func sectionID(at section: Int) -> SectionID {
        let displayed = _state.value.displayed
        guard displayed.indices.contains(section) else {
            _bindingsFailure("ListDataSource.sectionID(at: \(section)): the list has \(displayed.count) sections.")
        }
        return displayed[section].id
    }

    /// Where the item with `id` is shown, if it is.
    ///
    /// - Complexity: O(*n*).
    public func index(of id: Item.ID) -> ListIndex? {
        for (s, section) in _state.value.displayed.enumerated() {
            if let i = section.items.firstIndex(where: { $0.id == id }) { return ListIndex(section: s, item: i) }
        }
        return nil
    }
}

/// What a list data source holds behind its lock.
struct _ListState<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    var displayed: [ListSection<SectionID, Item>]
    var connection: Subscription?
    /// How many connections were made, and the id of the one in place (`0` for none).
    var connections: UInt64 = 0
    var liveConnection: UInt64 = 0
    var selection: _ListSelection<Item.ID>?
    /// The reactions that keep a set of ids and the latest id in agreement, when both are bound.
    var selectionSync: Subscription?
    var allowsMoving = false
    var allowsDeletion = false
    var canSelect: @Sendable (Item) -> Bool = { _ in true }
}

extension _Box {
    /// Runs `body` on the value under the lock.
    func modify<R>(_ body: (inout Value) -> R) -> R {
        withLock(body)
    }
}
