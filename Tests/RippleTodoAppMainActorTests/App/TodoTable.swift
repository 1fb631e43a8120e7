import RippleBindings

/// A table view, as UIKit's is: main-actor state that a data source's updates change.
final class TodoTable {
    private(set) var rows: [String] = []
    private(set) var updates: [ListUpdate] = []
    var source: MainActorListDataSource<Int, Todo>?

    func apply(_ update: ListUpdate) {
        updates.append(update)
        reloadData()
    }

    func reloadData() {
        guard let source else { return }
        rows = (0..<source.numberOfItems(inSection: 0)).map { row in
            let todo = source.item(at: ListIndex(item: row))
            return (todo.isDone ? "☑ " : "☐ ") + todo.title
        }
    }
}
