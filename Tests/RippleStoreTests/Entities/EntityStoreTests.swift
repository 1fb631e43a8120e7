import Testing
import Foundation
import Ripple
@testable import RippleStore

@Suite struct EntityStoreTests {
    private func makeStore(todos: Int = 0) throws -> Store<ENState, Never> {
        var state = ENState()
        try state.database.todos.insert(contentsOf: (0..<todos).map { ENTodo(id: $0, title: "todo \($0)") })
        return Store(initialState: state)
    }

    /// The node is named when a trace first reads the name: describing the table's key path
    /// and the id for every observer cost microseconds each (10 000 observers, 0.1 s).
    @Test func anEntityIsNamedAfterItsStoreTableAndIDInTraces() throws {
        var state = ENState()
        try state.database.todos.insert(ENTodo(id: 7, title: "seven"))
        let store = Store<ENState, Never>(initialState: state, name: "app")
        let todo = store.entity(7, in: \.database.todos)
        let subscription = observe(named: "row") { _ = todo.value?.title }
        let recorder = TraceRecorder()
        try withTracer(recorder) {
            try store.commit { try $0.database.todos.update(7) { $0.title = "SEVEN" } }
        }
        let name = "'app\(\ENState.database.todos as AnyKeyPath)[7]'"
        #expect(recorder.lines.contains { $0.contains(name) })
        withExtendedLifetime(subscription) {}
    }

    @Test func anEntityIsNilUntilInsertedAndAfterDeletion() throws {
        let store = try makeStore()
        let todo = store.entity(7, in: \.database.todos)
        let seen = ENCounter()
        let titles = ENBox<[String?]>([])
        let subscription = observe {
            let title = todo.value?.title
            seen.increment()
            titles.update { $0.append(title) }
        }
        try withExtendedLifetime(subscription) {
            try store.commit { try $0.database.todos.insert(ENTodo(id: 7, title: "seven")) }
            try store.commit { try $0.database.todos.update(7) { $0.title = "SEVEN" } }
            try store.commit { try $0.database.todos.insert(ENTodo(id: 8, title: "other")) }
            store.commit { $0.database.todos.delete(7) }
        }
        #expect(titles.value == [nil, "seven", "SEVEN", nil])
        #expect(seen.value == 4)
    }

    @Test func updatingOneOf100000NotifiesExactlyOneOf10000Observers() throws {
        let store = try makeStore(todos: 100_000)
        let counters = (0..<10_000).map { _ in ENCounter() }
        var subscriptions: [Subscription] = []
        subscriptions.reserveCapacity(10_000)
        for index in 0..<10_000 {
            let entity = store.entity(index * 10, in: \.database.todos)
            let counter = counters[index]
            subscriptions.append(entity.sinkValue(dropsFirst: true) { _ in counter.increment() })
        }
        try withExtendedLifetime(subscriptions) {
            try store.commit { try $0.database.todos.update(500) { $0.title = "changed" } }
            // 500 is observed by observer 50 only.
            #expect(counters[50].value == 1)
            #expect(counters.reduce(0) { $0 + $1.value } == 1)
            // The commit looked up the one changed id, not the 10 000 observed ones.
            #expect(store._entityObservers(\.database.todos)?.lastLookups == 1)
            // An entity nobody observes: no observer runs.
            try store.commit { try $0.database.todos.update(501) { $0.title = "changed" } }
            #expect(counters.reduce(0) { $0 + $1.value } == 1)
            // An equal value: nothing is published.
            let version = store.version
            try store.commit { try $0.database.todos.update(500) { $0.title = "changed" } }
            #expect(store.version == version)
        }
    }

    @Test func observersOfOneIDShareANodeAndReleaseIt() throws {
        let store = try makeStore(todos: 10)
        let first = store.entity(3, in: \.database.todos)
        let second = store.entity(3, in: \.database.todos)
        #expect(first.value == second.value)
        weak var weakNode: Stored<_Versioned<ENTodo?>>?
        do {
            let registry = try #require(store._entityObservers(\.database.todos))
            weakNode = registry.node(for: 3) { (EntityTable(), 0) }
        }
        #expect(weakNode != nil)
        withExtendedLifetime((first, second)) {}
    }

    @Test func theEntityAndTheStateAreNeverSeenApart() throws {
        let store = try makeStore(todos: 10)
        let todo = store.entity(2, in: \.database.todos)
        let mismatches = ENCounter()
        let subscription = observe {
            let fromEntity = todo.value?.title
            let fromState = store.state.database.todos[2]?.title
            if fromEntity != fromState { mismatches.increment() }
        }
        try withExtendedLifetime(subscription) {
            for step in 0..<20 {
                try store.commit { try $0.database.todos.update(2) { $0.title = "step \(step)" } }
            }
            store.commit { $0.database.todos.delete(2) }
        }
        #expect(mismatches.value == 0)
    }

    /// A reader that commits, then observes an entity for the first time, reads the entity as
    /// of the state it reads: the published one, not its own commit, which is delivered after
    /// the current round.
    @Test func anEntityFirstObservedByAReaderThatCommittedAgreesWithTheState() throws {
        let store = try makeStore(todos: 10)
        let trigger = Stored(0)
        let seen = ENBox<[[String?]]>([])
        let kept = ENBox<[Derived<ENTodo?>]>([])
        let subscription = observe {
            guard trigger.value == 1 else { return }
            try? store.commit { try $0.database.todos.update(2) { $0.title = "changed" } }
            let todo = store.entity(2, in: \.database.todos)
            kept.update { $0.append(todo) }
            let pair = [todo.value?.title, store.state.database.todos[2]?.title]
            seen.update { $0.append(pair) }
        }
        withExtendedLifetime(subscription) { trigger.value = 1 }
        #expect(seen.value == [["todo 2", "todo 2"], ["changed", "changed"]])
        #expect(kept.value.last?.value?.title == "changed")
    }

    @Test func changesCarryWhatEachCommitDidToATable() throws {
        let store = try makeStore(todos: 3)
        let recorded = ENBox<[EntityChanges<Int>]>([])
        let subscription = store.sinkState(dropsFirst: true) { changes in
            recorded.update { $0.append(changes.entityChanges(\.database.todos)) }
        }
        try withExtendedLifetime(subscription) {
            try store.commit { state in
                try state.database.todos.insert(ENTodo(id: 10, title: "new"))
                try state.database.todos.update(0) { $0.title = "updated" }
                state.database.todos.delete(1)
            }
            try store.commit { try $0.database.todos.update(2) { $0.title = "todo 2" } }  // equal: no commit
            store.commit { $0.title = "only the title" }
        }
        #expect(
            recorded.value == [
                EntityChanges(inserted: [10], updated: [0], deleted: [1]),
                EntityChanges(),
            ])
    }

    @Test func firstDeliveryCountsEveryEntityAsInserted() throws {
        let store = try makeStore(todos: 2)
        let first = ENBox<EntityChanges<Int>?>(nil)
        let subscription = store.sinkState { changes in
            if first.value == nil { first.value = changes.entityChanges(\.database.todos) }
        }
        withExtendedLifetime(subscription) {}
        #expect(first.value == EntityChanges(inserted: [0, 1]))
    }

    @Test func batchUpdatesAcrossTablesAreOneCommit() throws {
        let store = try makeStore()
        let deliveries = ENCounter()
        let subscription = store.sinkState(dropsFirst: true) { _ in deliveries.increment() }
        try withExtendedLifetime(subscription) {
            try store.commit { state in
                try state.database.insert(ENTodoList(id: 1, name: "Groceries"), into: \.lists)
                try state.database.insert(ENTodo(id: 1, title: "Milk", listID: 1), into: \.todos)
                try state.database.insert(ENTag(id: "dairy", todoID: 1), into: \.tags)
            }
        }
        #expect(deliveries.value == 1)
        #expect(store.currentState.database.tags.count == 1)
    }
}
