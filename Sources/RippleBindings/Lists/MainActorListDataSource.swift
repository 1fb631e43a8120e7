import Ripple
import RippleModels

/// A ``ListDataSource`` for main-actor code: sections of items from a main-actor source (a
/// view model's `MainActorComputed`), told to a main-actor table or collection view.
///
/// In an app target that is main-actor isolated by default (Xcode 26's new targets), a plain
/// `struct Todo: Identifiable, Equatable` conforms on the main actor, and `ListDataSource`,
/// whose items cross threads, cannot take it ("main actor-isolated conformance of 'Todo' to
/// 'Identifiable' cannot satisfy conformance requirement for a 'Sendable' type parameter").
/// This data source lives on the main actor instead: its items need not be `Sendable`, its
/// source is read there, and the view is told there, so `connect` may call the view directly.
///
/// ```swift
/// final class TodoScreen {
///     let model: TodoListModel                          // a @RippleModel
///     let tableView = TodoTableView()
///     let dataSource: MainActorListDataSource<Int, Todo>
///
///     init(model: TodoListModel) {
///         self.model = model
///         dataSource = MainActorListDataSource(items: model.visible)   // a MainActorComputed<[Todo]>
///         dataSource.connect { [tableView] update in tableView.apply(update) }
///         tableView.reloadData()
///     }
/// }
/// ```
///
/// **What the view is told.** As for ``ListDataSource``: the data source keeps the list the
/// view shows (``numberOfSections``, ``numberOfItems(inSection:)``, ``item(at:)``), and each
/// change of the source reaches the view as one ``ListUpdate`` from that list to the new
/// one. A change made on the main actor is told at once, before the code that made it
/// returns; a change of a `Stored` made on another thread is told from the main actor, and
/// changes that arrive before it runs are combined into one update. Items whose content
/// changed (for `Equatable` items) are reloaded.
///
/// It shows lists; it does not write back. Selection and the user's moves and deletions
/// written to the source are ``ListDataSource``'s (items that are `Sendable`, from any thread).
///
/// - Complexity: Each change costs the linear diff of the old and the new list.
@MainActor
public final class MainActorListDataSource<SectionID: Hashable, Item: Identifiable> {
    /// A section of this data source.
    public typealias Section = ListSection<SectionID, Item>

    private let source: @MainActor () -> [Section]
    private let isUpdated: (@MainActor (Item, Item) -> Bool)?
    private var displayed: [Section]
    private var connection: Subscription?

    /// Creates a data source over the sections a main-actor function returns: it is read in
    /// a main-actor reaction, so its reads of Ripple values are tracked.
    ///
    /// ```swift
    /// let dataSource = MainActorListDataSource(sections: {
    ///     [ListSection(id: "Open", items: model.open.value), ListSection(id: "Done", items: model.done.value)]
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - sections: Returns the sections to show; it must only read.
    ///   - isUpdated: Whether an item's content changed (the item is reloaded); `nil` for
    ///     never.
    public init(
        sections: @escaping @MainActor () -> [Section],
        isUpdated: (@MainActor (Item, Item) -> Bool)? = nil
    ) {
        source = sections
        self.isUpdated = isUpdated
        displayed = untracked { sections() }
    }

    /// Creates a data source over main-actor computed sections.
    ///
    /// - Parameters:
    ///   - sections: The sections to show.
    ///   - isUpdated: Whether an item's content changed; `nil` for never.
    public convenience init(
        sections: MainActorComputed<[Section]>,
        isUpdated: (@MainActor (Item, Item) -> Bool)? = nil
    ) {
        self.init(sections: { sections.value }, isUpdated: isUpdated)
    }

    // MARK: Connecting a view

    /// Starts telling a view of changes: from now on, each change of the source reaches
    /// `update`, on the main actor.
    ///
    /// The view should reload its data right after connecting: the list it is told about
    /// starts with the source's current value. Connecting again replaces the connection.
    /// Reads inside `update` are not dependencies of the connection.
    ///
    /// - Parameter update: Applies one batch of changes to the view.
    /// - Returns: The connection; cancel it to stop. The data source keeps it alive.
    @discardableResult
    public func connect(update: @escaping @MainActor (ListUpdate) -> Void) -> Subscription {
        displayed = untracked { source() }
        connection?.cancel()
        let connection = withoutOwner {
            observeOnMainActor { [weak self] in
                guard let self else { return }
                let sections = source()
                untracked { self.show(sections, update: update) }
            }
        }
        self.connection = connection
        return connection
    }

    /// Shows `sections`: the update from the shown list, then the view told.
    private func show(_ sections: [Section], update: @MainActor (ListUpdate) -> Void) {
        let changes = _listUpdate(from: displayed, to: sections, isUpdated: isUpdated)
        displayed = sections
        if changes.isEmpty { return }
        update(changes)
    }

    // MARK: The shown list

    /// The number of sections the view shows.
    public var numberOfSections: Int { displayed.count }

    /// The number of items in `section`.
    ///
    /// - Precondition: `section` is in range.
    public func numberOfItems(inSection section: Int) -> Int {
        guard displayed.indices.contains(section) else {
            _bindingsFailure(
                "MainActorListDataSource.numberOfItems(inSection: \(section)): the list has \(displayed.count) sections."
            )
        }
        return displayed[section].items.count
    }

    /// The item at `index`.
    ///
    /// - Precondition: `index` is in range.
    public func item(at index: ListIndex) -> Item {
        guard displayed.indices.contains(index.section), displayed[index.section].items.indices.contains(index.item)
        else {
            _bindingsFailure(
                "MainActorListDataSource.item(at: \(index)): no such item; the list has \(displayed.count) sections with \(displayed.map(\.items.count)) items."
            )
        }
        return displayed[index.section].items[index.item]
    }

    /// The identity of the section at `section`.
    ///
    /// - Precondition: `section` is in range.
    public func sectionID(at section: Int) -> SectionID {
        guard displayed.indices.contains(section) else {
            _bindingsFailure(
                "MainActorListDataSource.sectionID(at: \(section)): the list has \(displayed.count) sections.")
        }
        return displayed[section].id
    }

    /// Where the item with `id` is shown, if it is.
    ///
    /// - Complexity: O(*n*).
    public func index(of id: Item.ID) -> ListIndex? {
        for (s, section) in displayed.enumerated() {
            if let i = section.items.firstIndex(where: { $0.id == id }) { return ListIndex(section: s, item: i) }
        }
        return nil
    }
}

extension MainActorListDataSource where SectionID == Int {
    /// Creates a data source with one section (id `0`) over main-actor computed items.
    ///
    /// ```swift
    /// let dataSource = MainActorListDataSource(items: model.visible)   // a MainActorComputed<[Todo]>
    /// ```
    public convenience init(items: MainActorComputed<[Item]>) {
        self.init(sections: { [ListSection(id: 0, items: items.value)] }, isUpdated: nil)
    }

    /// Creates a data source with one section over main-actor computed `Equatable` items: an
    /// item whose content changes is reloaded.
    public convenience init(items: MainActorComputed<[Item]>) where Item: Equatable {
        self.init(sections: { [ListSection(id: 0, items: items.value)] }, isUpdated: { $0 != $1 })
    }

    /// Creates a data source with one section over the items a main-actor function returns
    /// (read in a main-actor reaction, so its reads are tracked).
    ///
    /// ```swift
    /// let dataSource = MainActorListDataSource(items: { model.items })   // a @RippleModel property
    /// ```
    public convenience init(items: @escaping @MainActor () -> [Item]) {
        self.init(sections: { [ListSection(id: 0, items: items())] }, isUpdated: nil)
    }

    /// Creates a data source with one section over the `Equatable` items a main-actor function
    /// returns: an item whose content changes is reloaded.
    public convenience init(items: @escaping @MainActor () -> [Item]) where Item: Equatable {
        self.init(sections: { [ListSection(id: 0, items: items())] }, isUpdated: { $0 != $1 })
    }
}
