import RippleStore
import Testing

struct TDTodoState: Equatable, Sendable, DerivedFields {
    var todos: [Bool] = []  // isDone
    var name = ""
    private(set) var remaining = 0
    private(set) var total = 0
    private(set) var updates = 0

    static func updateDerivedFields(of state: inout TDTodoState, after changes: Changes<TDTodoState>) {
        changes.ifChanged(\.todos) { todos in
            state.remaining = todos.filter { !$0 }.count
            state.total = todos.count
            state.updates += 1
        }
    }
}

/// Issue 10 item 6: state-derived fields, up to date inside every commit.
@Suite("DerivedFields")
struct DerivedFieldsTests {
    @Test("derived fields are up to date in every delivery and every read")
    func upToDateInEveryCommit() {
        let store = Store<TDTodoState, Never>(initialState: TDTodoState())
        let stale = TDLog<String>()
        let deliveries = TDCounter()
        let subscription = store.sinkState { changes in
            deliveries.increment()
            let state = changes.current
            if state.remaining != state.todos.filter({ !$0 }).count || state.total != state.todos.count {
                stale.append("version \(changes.version): \(state)")
            }
        }
        let readerRuns = TDCounter()
        let reader = observe {
            readerRuns.increment()
            let todos = store.state.todos
            if store.state.total != todos.count {
                stale.append("reader saw total \(store.state.total) for \(todos.count)")
            }
        }
        store.commit { $0.todos.append(false) }
        store.commit { $0.todos.append(true) }
        store.commit { $0.todos[0] = true }
        store.commit { $0.todos.removeAll() }
        #expect(deliveries.value == 5)
        #expect(stale.all == [], "a subscriber saw a stale derived field")
        #expect(store.currentState.remaining == 0)
        #expect(store.currentState.total == 0)
        withExtendedLifetime((subscription, reader, readerRuns)) {}
    }

    @Test("derived fields run only when the commit changed what they depend on, with the right previous state")
    func updatedFromTheCommitsChanges() {
        let store = Store<TDTodoState, Never>(initialState: TDTodoState())
        // The store brings the initial state's derived fields up to date once, at creation.
        let initial = store.currentState.updates
        store.commit { $0.todos = [false, false] }
        #expect(store.currentState.remaining == 2)
        #expect(store.currentState.updates == initial + 1)
        store.commit { $0.name = "list" }
        #expect(store.currentState.updates == initial + 1)
        store.commit { $0.todos[1] = true }
        #expect(store.currentState.remaining == 1)
        #expect(store.currentState.updates == initial + 2)
    }

    @Test("the initial state is published with its derived fields applied")
    func appliedAtCreation() {
        let store = Store<TDTodoState, Never>(initialState: TDTodoState(todos: [false, true, false]))
        #expect(store.currentState.remaining == 2)
        #expect(store.currentState.total == 3)
        #expect(store.currentState.updates == 1)
        #expect(store.version == 0)
        let first = TDLog<Int>()
        let subscription = store.sinkState { first.append($0.current.remaining) }
        #expect(first.all == [2])
        #expect(store.derived(\.total).value == 3)
        subscription.cancel()
    }

    @Test("derived fields under commits from 2 threads")
    func underConcurrentCommits() {
        let store = Store<TDTodoState, Never>(initialState: TDTodoState())
        let stale = TDCounter()
        let subscription = store.sinkState { changes in
            if changes.current.total != changes.current.todos.count { stale.increment() }
        }
        runOnThreads(2) { thread in
            for _ in 0..<200 { store.commit { $0.todos.append(thread == 0) } }
        }
        #expect(store.currentState.total == 400)
        #expect(store.currentState.remaining == 200)
        #expect(stale.value == 0)
        subscription.cancel()
    }
}
