#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Ripple

/// An `NSTableView`'s data source and delegate over a one-section ``ListDataSource``: rows
/// from the list, animated changes (applied in order with ``ListChanges/steps(oldCount:)``),
/// and selection.
///
/// ```swift
/// let list = ListDataSource(items: days, on: .mainActor)
/// let binding = NSTableViewBinding(tableView, list: list) { tableView, column, row, day in
///     let cell = tableView.makeView(withIdentifier: .init("Day"), owner: nil) as? NSTableCellView
///     cell?.textField?.stringValue = day.name
///     return cell
/// }
/// ```
///
/// The table view keeps the binding. Make the list with the `.mainActor` scheduler: with
/// another, a change made off the main thread would reach the table view off the main actor,
/// which stops the program. Only the list's first section is shown.
@MainActor
public final class NSTableViewBinding<Item: Identifiable & Sendable>: NSObject, NSTableViewDataSource,
    NSTableViewDelegate
where Item.ID: Sendable {
    /// The list shown (its first section).
    public let list: ListDataSource<Int, Item>
    private let makeView: @MainActor (NSTableView, NSTableColumn?, Int, Item) -> NSView?
    private weak var tableView: NSTableView?
    private var isSyncingSelection = false

    /// Shows `list` in `tableView`, with cell views from `view`.
    public init(
        _ tableView: NSTableView,
        list: ListDataSource<Int, Item>,
        view: @escaping @MainActor (NSTableView, NSTableColumn?, Int, Item) -> NSView?
    ) {
        self.list = list
        makeView = view
        self.tableView = tableView
        super.init()
        tableView.dataSource = self
        tableView.delegate = self
        objc_setAssociatedObject(
            tableView, UnsafeRawPointer(("ripple.NSTableView.binding" as StaticString).utf8Start), self,
            .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        list.connect(
            update: { [weak self] update in MainActor.assumeIsolated { self?.apply(update) } },
            selection: { [weak self] selected in MainActor.assumeIsolated { self?.select(selected) } }
        )
        tableView.reloadData()
        select(list.selectedIndices)
    }

    private var rowCount: Int { list.numberOfSections == 0 ? 0 : list.numberOfItems(inSection: 0) }

    private func apply(_ update: ListUpdate) {
        guard let tableView else { return }
        guard update.sections.isEmpty else { return tableView.reloadData() }
        let changes = ListChanges(
            deletions: update.itemDeletions.filter { $0.section == 0 }.map(\.item),
            insertions: update.itemInsertions.filter { $0.section == 0 }.map(\.item),
            moves: update.itemMoves.filter { $0.from.section == 0 }.map {
                ListChanges.Move(from: $0.from.item, to: $0.to.item)
            },
            updates: update.itemUpdates.filter { $0.section == 0 }.map(\.item)
        )
        // Removing selected rows posts selection changes: they are not the user's.
        isSyncingSelection = true
        defer { isSyncingSelection = false }
        let oldCount = tableView.numberOfRows
        var reloads = IndexSet()
        tableView.beginUpdates()
        for step in changes.steps(oldCount: oldCount) {
            switch step {
            case .delete(let row): tableView.removeRows(at: [row], withAnimation: .effectFade)
            case .insert(let row): tableView.insertRows(at: [row], withAnimation: .effectFade)
            case .move(let from, let to): tableView.moveRow(at: from, to: to)
            case .reload(let row): reloads.insert(row)
            }
        }
        tableView.endUpdates()
        if !reloads.isEmpty {
            tableView.reloadData(
                forRowIndexes: reloads, columnIndexes: IndexSet(integersIn: 0..<tableView.numberOfColumns))
        }
    }

    private func select(_ selected: [ListIndex]) {
        guard let tableView, list._state.value.selection != nil else { return }
        let wasSyncing = isSyncingSelection
        isSyncingSelection = true
        defer { isSyncingSelection = wasSyncing }
        tableView.selectRowIndexes(
            IndexSet(selected.filter { $0.section == 0 }.map(\.item)), byExtendingSelection: false)
    }

    /// The number of rows of the list.
    public func numberOfRows(in tableView: NSTableView) -> Int { rowCount }

    /// A view made by the `view` function.
    public func tableView(_ tableView: NSTableView, viewFor tableColumn: NSTableColumn?, row: Int) -> NSView? {
        makeView(tableView, tableColumn, row, list.item(at: ListIndex(item: row)))
    }

    /// Refuses items the list cannot select.
    public func tableView(_ tableView: NSTableView, shouldSelectRow row: Int) -> Bool {
        list.canSelect(at: ListIndex(item: row))
    }

    /// Writes the user's selection to the list's selection.
    public func tableViewSelectionDidChange(_ notification: Notification) {
        guard let tableView, !isSyncingSelection else { return }
        let selected = tableView.selectedRowIndexes
        let before = Set(list.selectedIndices.map(\.item))
        for row in before where !selected.contains(row) { list.userDidDeselect(at: ListIndex(item: row)) }
        for row in selected where !before.contains(row) { list.userDidSelect(at: ListIndex(item: row)) }
    }
}
#endif
