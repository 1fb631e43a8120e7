import RippleStore

/// The store's state: a plain value type.
struct TodoState: Equatable {
    var todos: [Todo] = []
    var draft = ""
}

/// What the store reports that is not state.
enum TodoActivity: Equatable {
    case added(String)
}

/// The typealias form: a store used as it is, its operations in an extension.
typealias DraftStore = MainActorStore<TodoState, Never>

extension DraftStore {
    func type(_ text: String) {
        commit { $0.draft = text }
    }
}

/// The subclass form.
final class TodoStore: MainActorStore<TodoState, TodoActivity> {
    private var nextID = 1

    func add(_ title: String) {
        let id = nextID
        nextID += 1
        commit("add") { $0.todos.append(Todo(id: id, title: title)) }
        send(.added(title))
    }

    func toggle(_ id: Int) {
        commit { state in
            guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return }
            state.todos[index].isDone.toggle()
        }
    }

    /// Renames a to-do; an empty title is refused and nothing changes.
    func rename(_ id: Int, to title: String) throws(TodoError) -> String {
        try commit("rename") { (state) throws(TodoError) -> String in
            guard !title.isEmpty else { throw .emptyTitle }
            guard let index = state.todos.firstIndex(where: { $0.id == id }) else { throw .unknown(id) }
            let old = state.todos[index].title
            state.todos[index].title = title
            return old
        }
    }
}

/// Why a rename was refused.
enum TodoError: Error, Equatable {
    case emptyTitle
    case unknown(Int)
}
