// The code of Reducer.md, MigratingFromOneWay.md and Entities.md, compiled and run.
import Foundation
@testable import RippleStore
import Testing

enum DocSnippetsReducer {
    struct Counter: Reducer {
        struct State: Equatable { var number = 0 }
        enum Action { case increment, decrement, twice, load, loaded(Int) }

        var fetch: @Sendable () async throws -> Int

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .increment: state.number += 1; return .none
            case .decrement: state.number -= 1; return .none
            case .twice: return .concat(.send(.increment), .send(.increment))
            case .load:
                let fetch = fetch
                return .run { send in await send(.loaded(try await fetch())) }.cancellable(id: "load")
            case .loaded(let n): state.number = n; return .none
            }
        }
    }

    struct Search: Reducer {
        struct State: Equatable { var query = "" }
        enum Action: Equatable { case queryChanged(String), search }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                state.query = query
                return Effect.send(.search).debounce(id: "search", for: .milliseconds(300))
            case .search:
                return .none
            }
        }
    }

    struct Todo: Identifiable, Equatable, Codable, Sendable {
        var id: Int
        var title: String
        var listID: Int?
    }

    struct AppState: Equatable, Sendable {
        var todos = EntityTable<Todo>()
    }

    struct TodoList: Identifiable, Equatable, Codable, Sendable { var id: Int; var name: String }

    struct Database: EntityDatabase, Codable {
        var lists = EntityTable<TodoList>()
        var todos = EntityTable<Todo>()

        static var relationships: [EntityRelationship<Database>] {
            [.reference(from: \.todos, by: \.listID, to: \.lists, onDelete: .cascade)]
        }
    }
}

extension DocSnippetsReducer.Todo: IndexedEntity {
    static var indexes: [EntityIndex<DocSnippetsReducer.Todo>] {
        [.ordered(by: \.title), .grouped(by: \.listID)]
    }
}

@Suite struct DocSnippetsReducerEntitiesTests {
    typealias Counter = DocSnippetsReducer.Counter

    @Test func reducerArticle() async {
        let store = ReducerStore(reducer: Counter(fetch: { 42 }), initialState: Counter.State())
        let loaded = DocsReducerLog<Bool>()
        let subscription = store.sinkState { changes in
            if case .loaded? = changes.transaction.action as? Counter.Action { loaded.append(true) }
        }
        store.send(.increment)
        #expect(store.currentState.number == 1)
        store.send(.twice)
        #expect(store.currentState.number == 3)
        store.send(.load)
        var numbers = store.states.number.makeAsyncIterator()
        while let number = await numbers.next(), number != 42 {}
        #expect(loaded.values == [true])
        withExtendedLifetime(subscription) {}
        let states = store.states.map(\.number)
        _ = states
    }

    @Test func entitiesArticle() throws {
        typealias Todo = DocSnippetsReducer.Todo
        let store = Store<DocSnippetsReducer.AppState, Never>(initialState: DocSnippetsReducer.AppState())
        let todo = store.entity(1, in: \.todos)
        try store.commit { state in
            try state.todos.insert(Todo(id: 1, title: "Milk", listID: nil))
            try state.todos.update(1) { $0.title = "Oat milk" }
            state.todos.upsert(Todo(id: 2, title: "Bread", listID: nil))
            state.todos.delete(2)
        }
        #expect(todo.value?.title == "Oat milk")
        #expect(store.currentState.todos.sorted(by: \.title).map(\.id) == [1])
        #expect(store.currentState.todos.entities(where: \.listID, equals: nil).map(\.id) == [1])

        var database = DocSnippetsReducer.Database()
        try database.insert(DocSnippetsReducer.TodoList(id: 1, name: "Groceries"), into: \.lists)
        try database.insert(Todo(id: 1, title: "Milk", listID: 1), into: \.todos)
        database.delete(1, from: \.lists)
        #expect(database.todos.isEmpty)
    }
}

private final class DocsReducerLog<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
}
