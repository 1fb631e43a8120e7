import RippleStore
import Testing

@Suite("The to-do app's stores, in a main-actor app target")
struct TodoStoreTests {
    @Test("a store subclass commits, derives and delivers to a main-actor sink")
    func subclass() {
        let store = TodoStore(initialState: TodoState())
        var seen: [Int] = []
        var activities: [TodoActivity] = []
        let count = store.derived { $0.todos.count }
        let done = store.derived(from: \.todos) { todos in todos.filter(\.isDone).map(\.title) }
        let sink = store.sinkState { changes in
            changes.ifChanged(\.todos) { seen.append($0.count) }
        }
        let activity = store.sinkActivity { activities.append($0) }
        store.add("milk")
        store.add("eggs")
        store.toggle(1)
        #expect(count.value == 2)
        #expect(done.value == ["milk"])
        #expect(seen == [0, 1, 2, 2])
        #expect(activities == [.added("milk"), .added("eggs")])
        #expect(store.currentState.todos.filter(\.isDone).map(\.title) == ["milk"])
        #expect(store.version == 3)
        sink.cancel()
        activity.cancel()
    }

    @Test("a commit returns what its mutation returned, and a thrown error leaves the state")
    func commitReturnsAndThrows() throws {
        let store = TodoStore(initialState: TodoState())
        store.add("milk")
        #expect(try store.rename(1, to: "oat milk") == "milk")
        #expect(throws: TodoError.emptyTitle) { try store.rename(1, to: "") }
        #expect(throws: TodoError.unknown(9)) { try store.rename(9, to: "x") }
        #expect(store.currentState.todos.map(\.title) == ["oat milk"])
        #expect(store.version == 2)
    }

    @Test("a store used through a typealias, with its operations in an extension")
    func typealiasForm() {
        let store = DraftStore(initialState: TodoState())
        let draft = store.derived(\.draft)
        var changes: [String] = []
        let log = draft.onChange { old, new in changes.append("\(old)→\(new)") }
        store.type("bread")
        #expect(draft.value == "bread")
        #expect(store.state.draft == "bread")
        #expect(changes == ["→bread"])
        log.cancel()
    }

    @Test("closure selectors, one per row, in a main-actor app target")
    func rowSelectors() {
        let store = TodoStore(initialState: TodoState())
        store.add("milk")
        store.add("eggs")
        let rows = (0..<2).map { index in store.select { $0.todos[index].title } }
        var changed: [String] = []
        let logs = rows.map { row in row.onChange { _, new in changed.append(new) } }
        store.toggle(1)
        #expect(changed.isEmpty, "a commit that changed no title delivered a row")
        store.commit { $0.todos[1].title = "bread" }
        #expect(changed == ["bread"])
        #expect(rows.map(\.value) == ["milk", "bread"])
        for log in logs { log.cancel() }
    }
}
