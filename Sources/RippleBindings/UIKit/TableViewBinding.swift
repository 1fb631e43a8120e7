#if canImport(UIKit) && !os(watchOS)
import UIKit
import Ripple

extension ListIndex {
    /// The index path of this position.
    public var indexPath: IndexPath { IndexPath(item: item, section: section) }

    /// The position of an index path.
    public init(_ indexPath: IndexPath) { self.init(section: indexPath.section, item: indexPath.item) }
}

/// A `UITableView`'s data source and delegate over a ``ListDataSource`` (Fisticuffs'
/// `b_configure`): rows from the list, animated batch updates, selection, and the user's
/// moves and deletions when the list allows them.
///
/// ```swift
/// let days = Stored(["Sunday", "Monday"].map(Day.init))
/// let list = ListDataSource(items: days, on: .mainActor)
/// list.allowsMoving = true
/// let binding = TableViewBinding(tableView, list: list) { tableView, indexPath, day in
///     let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
///     cell.textLabel?.text = day.name
///     return cell
/// }
/// ```
///
/// The table view keeps the binding (you need not): it lives as long as the table view.
/// Make the list with the `.mainActor` scheduler: with another, a change made off the main
/// thread would reach the table view off the main actor, which stops the program.
/// Multiple selection is turned on when the list's selection is a set of ids; with no
/// selection bound, the binding leaves the table view's selection alone.
@MainActor
public final class TableViewBinding<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>: NSObject,
    UITableViewDataSource, UITableViewDelegate
where Item.ID: Sendable {
    /// The list shown.
    public let list: ListDataSource<SectionID, Item>
    private let makeCell: @MainActor (UITableView, IndexPath, Item) -> UITableViewCell
    private weak var tableView: UITableView?
    private var isCommittingEdit = false

    /// Shows `list` in `tableView`, with cells from `cell`.
    public init(
        _ tableView: UITableView,
        list: ListDataSource<SectionID, Item>,
        cell: @escaping @MainActor (UITableView, IndexPath, Item) -> UITableViewCell
    ) {
        self.list = list
        makeCell = cell
        self.tableView = tableView
        super.init()
        tableView.dataSource = self
        tableView.delegate = self
        if case .multiple = list._state.value.selection { tableView.allowsMultipleSelection = true }
        objc_setAssociatedObject(
            tableView, UnsafeRawPointer(("ripple.UITableView.binding" as StaticString).utf8Start), self,
            .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        list.connect(
            update: { [weak self] update in MainActor.assumeIsolated { self?.apply(update) } },
            selection: { [weak self] selected in MainActor.assumeIsolated { self?.select(selected) } }
        )
        tableView.reloadData()
        select(list.selectedIndices)
    }

    private func apply(_ update: ListUpdate) {
        guard let tableView else { return }
        // Before its first layout (or off screen) a table view may read the new counts as its
        // "before" counts: reload instead of animating.
        guard tableView.window != nil else { return tableView.reloadData() }
        tableView.performBatchUpdates {
            tableView.deleteSections(IndexSet(update.sections.deletions), with: .automatic)
            tableView.insertSections(IndexSet(update.sections.insertions), with: .automatic)
            for move in update.sections.moves { tableView.moveSection(move.from, toSection: move.to) }
            tableView.deleteRows(at: update.itemDeletions.map(\.indexPath), with: .automatic)
            tableView.insertRows(at: update.itemInsertions.map(\.indexPath), with: .automatic)
            for move in update.itemMoves { tableView.moveRow(at: move.from.indexPath, to: move.to.indexPath) }
            tableView.reloadRows(at: update.itemUpdates.map(\.indexPath), with: .automatic)
        }
    }

    private func select(_ selected: [ListIndex]) {
        guard let tableView, !isCommittingEdit, list._state.value.selection != nil else { return }
        let wanted = Set(selected.map(\.indexPath))
        for indexPath in tableView.indexPathsForSelectedRows ?? [] where !wanted.contains(indexPath) {
            tableView.deselectRow(at: indexPath, animated: true)
        }
        for indexPath in wanted { tableView.selectRow(at: indexPath, animated: true, scrollPosition: .none) }
    }

    /// The number of sections of the list.
    public func numberOfSections(in tableView: UITableView) -> Int { list.numberOfSections }

    /// The number of items in a section of the list.
    public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        list.numberOfItems(inSection: section)
    }

    /// A cell made by the `cell` function.
    public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        makeCell(tableView, indexPath, list.item(at: ListIndex(indexPath)))
    }

    /// Rows move when the list allows moving.
    public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { list.allowsMoving }

    /// Rows are editable when the list allows deletion or moving.
    public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool {
        list.allowsDeletion || list.allowsMoving
    }

    /// Rows can be deleted only when the list allows deletion.
    public func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath)
        -> UITableViewCell.EditingStyle
    {
        list.allowsDeletion ? .delete : .none
    }

    /// Rows indent in editing mode only when they can be deleted.
    public func tableView(_ tableView: UITableView, shouldIndentWhileEditingRowAt indexPath: IndexPath) -> Bool {
        list.allowsDeletion
    }

    /// Writes the user's move to the list's source.
    public func tableView(_ tableView: UITableView, moveRowAt source: IndexPath, to destination: IndexPath) {
        list.userDidMove(from: ListIndex(source), to: ListIndex(destination))
    }

    /// Writes the user's deletion to the list's source.
    public func tableView(
        _ tableView: UITableView, commit style: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath
    ) {
        guard style == .delete, list.allowsDeletion else { return }
        // The selection changes with the deletion: show it once the row is gone.
        isCommittingEdit = true
        list.userDidDelete(at: ListIndex(indexPath))
        tableView.deleteRows(at: [indexPath], with: .automatic)
        isCommittingEdit = false
        select(list.selectedIndices)
    }

    /// Refuses items the list cannot select.
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        list.canSelect(at: ListIndex(indexPath)) ? indexPath : nil
    }

    /// Writes the user's selection to the list's selection.
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        list.userDidSelect(at: ListIndex(indexPath))
    }

    /// Writes the user's deselection to the list's selection.
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
        list.userDidDeselect(at: ListIndex(indexPath))
    }
}

/// A `UICollectionView`'s data source and delegate over a ``ListDataSource``: items from the
/// list, animated batch updates, selection, and the user's moves.
///
/// The collection view keeps the binding. Make the list with the `.mainActor` scheduler: with
/// another, a change made off the main thread would reach the collection view off the main
/// actor, which stops the program.
@MainActor
public final class CollectionViewBinding<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>: NSObject,
    UICollectionViewDataSource, UICollectionViewDelegate
where Item.ID: Sendable {
    /// The list shown.
    public let list: ListDataSource<SectionID, Item>
    private let makeCell: @MainActor (UICollectionView, IndexPath, Item) -> UICollectionViewCell
    private weak var collectionView: UICollectionView?

    /// Shows `list` in `collectionView`, with cells from `cell`.
    public init(
        _ collectionView: UICollectionView,
        list: ListDataSource<SectionID, Item>,
        cell: @escaping @MainActor (UICollectionView, IndexPath, Item) -> UICollectionViewCell
    ) {
        self.list = list
        makeCell = cell
        self.collectionView = collectionView
        super.init()
        collectionView.dataSource = self
        collectionView.delegate = self
        if case .multiple = list._state.value.selection { collectionView.allowsMultipleSelection = true }
        objc_setAssociatedObject(
            collectionView, UnsafeRawPointer(("ripple.UICollectionView.binding" as StaticString).utf8Start), self,
            .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        list.connect(
            update: { [weak self] update in MainActor.assumeIsolated { self?.apply(update) } },
            selection: { [weak self] selected in MainActor.assumeIsolated { self?.select(selected) } }
        )
        collectionView.reloadData()
        select(list.selectedIndices)
    }

    private func apply(_ update: ListUpdate) {
        guard let collectionView else { return }
        guard collectionView.window != nil else { return collectionView.reloadData() }
        collectionView.performBatchUpdates {
            collectionView.deleteSections(IndexSet(update.sections.deletions))
            collectionView.insertSections(IndexSet(update.sections.insertions))
            for move in update.sections.moves { collectionView.moveSection(move.from, toSection: move.to) }
            collectionView.deleteItems(at: update.itemDeletions.map(\.indexPath))
            collectionView.insertItems(at: update.itemInsertions.map(\.indexPath))
            for move in update.itemMoves { collectionView.moveItem(at: move.from.indexPath, to: move.to.indexPath) }
            collectionView.reloadItems(at: update.itemUpdates.map(\.indexPath))
        }
    }

    private func select(_ selected: [ListIndex]) {
        guard let collectionView, list._state.value.selection != nil else { return }
        let wanted = Set(selected.map(\.indexPath))
        for indexPath in collectionView.indexPathsForSelectedItems ?? [] where !wanted.contains(indexPath) {
            collectionView.deselectItem(at: indexPath, animated: true)
        }
        for indexPath in wanted { collectionView.selectItem(at: indexPath, animated: true, scrollPosition: []) }
    }

    /// The number of sections of the list.
    public func numberOfSections(in collectionView: UICollectionView) -> Int { list.numberOfSections }

    /// The number of items in a section of the list.
    public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        list.numberOfItems(inSection: section)
    }

    /// A cell made by the `cell` function.
    public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
        -> UICollectionViewCell
    {
        makeCell(collectionView, indexPath, list.item(at: ListIndex(indexPath)))
    }

    /// Items move when the list allows moving.
    public func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        list.allowsMoving
    }

    /// Writes the user's move to the list's source.
    public func collectionView(
        _ collectionView: UICollectionView, moveItemAt source: IndexPath, to destination: IndexPath
    ) {
        list.userDidMove(from: ListIndex(source), to: ListIndex(destination))
    }

    /// Refuses items the list cannot select.
    public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
        list.canSelect(at: ListIndex(indexPath))
    }

    /// Writes the user's selection to the list's selection.
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        list.userDidSelect(at: ListIndex(indexPath))
    }

    /// Writes the user's deselection to the list's selection.
    public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        list.userDidDeselect(at: ListIndex(indexPath))
    }
}
#endif
