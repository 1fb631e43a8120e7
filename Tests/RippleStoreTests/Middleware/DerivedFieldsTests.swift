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

/// A review found a middleware step that rewrites an input of a derived field publishing the
/// field stale (a total of 106 for items summing to 6), and a `MainActorStore` that never ran
/// `updateDerivedFields` at all (its total stayed 0).
@Suite("DerivedFields and middleware")
struct DerivedFieldsMiddlewareTests {
    struct Cart: Equatable, Sendable, DerivedFields {
        var items: [Int] = []
        private(set) var total = 0

        static func updateDerivedFields(of state: inout Cart, after changes: Changes<Cart>) {
            changes.ifChanged(\.items) { items in state.total = items.reduce(0, +) }
        }
    }

    static let keepThree = StoreMiddleware<Cart>("keep three items") { state, _, _ in
        if state.items.count > 3 { state.items = Array(state.items.prefix(3)) }
    }

    @Test("a middleware step that changes an input of a derived field publishes the field up to date")
    func derivedAgainAfterMiddleware() {
        let store = Store<Cart, Never>(initialState: Cart(), middleware: [Self.keepThree])
        let delivered = TDLog<Int>()
        let subscription = store.sinkState(dropsFirst: true) { delivered.append($0.current.total) }
        store.commit { $0.items = [1, 2, 3, 100] }
        #expect(store.currentState.items == [1, 2, 3])
        #expect(store.currentState.total == 6)
        #expect(delivered.all == [6])
        withExtendedLifetime(subscription) {}
    }

    @MainActor @Test("a main-actor store keeps a DerivedFields state's fields up to date, after middleware too")
    func mainActorStoreDerivesFields() {
        let store = MainActorStore<Cart, Never>(initialState: Cart(items: [4]))
        #expect(store.currentState.total == 4, "the initial state's derived fields")
        store.commit { $0.items.append(5) }
        #expect(store.currentState.total == 9)
        store.add(middleware: Self.keepThree)
        store.commit { $0.items = [1, 2, 3, 100] }
        #expect(store.currentState.items == [1, 2, 3])
        #expect(store.currentState.total == 6)
    }
}
