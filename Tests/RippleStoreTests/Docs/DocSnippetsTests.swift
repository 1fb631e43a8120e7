// The code of the RippleStore documentation catalog (Sources/RippleStore/RippleStore.docc),
// compiled and run: if an article's snippet stops matching the API, this file stops building.
// The types are nested in `DocSnippets` so that their names (as in the articles) don't clash
// with other tests'.
import Foundation
import RippleStore
import Testing

private final class DocsLog<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
}

enum DocSnippets {
    // MARK: RippleStore.md

    struct AppState: Equatable, Sendable { var name = ""; var count = 0 }
    enum AppActivity: Sendable { case didSendMessage }

    final class AppStore: Store<AppState, AppActivity>, @unchecked Sendable {
        func increment() { commit { $0.count += 1 } }
    }

    // MARK: GettingStarted.md

    struct Todo: Equatable, Sendable {
        var title: String
        var isDone = false
    }

    struct TodoState: Equatable, Sendable {
        var todos: [Todo] = []
        var draft = ""
        var showsDone = true
    }

    enum TodoActivity: Sendable {
        case didAdd(Todo)
    }

    final class TodoStore: Store<TodoState, TodoActivity>, @unchecked Sendable {
        func add() {
            let todo = Todo(title: currentState.draft)
            commit("add") { state in
                state.todos.append(todo)
                state.draft = ""
            }
            send(.didAdd(todo))
        }

        func toggle(at index: Int) {
            commit { $0.todos[index].isDone.toggle() }
        }
    }

    struct CounterState: Equatable, Sendable { var count = 0 }
    typealias CounterStore = Store<CounterState, Never>

    // MARK: TheStore.md

    struct Profile: Equatable, Sendable { var name = ""; var bio = "" }

    struct FullState: Equatable, Sendable {
        var profile = Profile()
        var count = 0
        var isLoading = false
    }

    final class FullStore: Store<FullState, AppActivity>, @unchecked Sendable {
        func increment() { commit { $0.count += 1 } }
    }

    typealias FullCounterStore = Store<FullState, AppActivity>

    enum RenameError: Error { case empty }

    enum Origin: TransactionKey {
        static let defaultValue = "app"
    }

    struct DerivedTodoState: Equatable, Sendable, DerivedFields {
        var todos: [Todo] = []
        private(set) var remaining = 0

        static func updateDerivedFields(of state: inout DerivedTodoState, after changes: Changes<DerivedTodoState>) {
            changes.ifChanged(\.todos) { todos in
                state.remaining = todos.filter { !$0.isDone }.count
            }
        }
    }

    final class ProfileActions: Dispatcher<FullState, AppActivity, Profile>, @unchecked Sendable {
        func rename(_ name: String) { commit { $0.name = name } }
    }

    // MARK: MigratingFromVerge.md

    struct MyState: Equatable, Sendable { var count = 0; var name = "" }
    enum MyActivity: Sendable { case countWasIncremented }

    final class MyStore: Store<MyState, MyActivity>, @unchecked Sendable {
        init() { super.init(initialState: .init(), logger: PrintStoreLogger(write: { _ in })) }

        func incrementCount() {
            commit { $0.count += 1 }
            send(.countWasIncremented)
        }
    }
}

extension DocSnippets.CounterStore {
    func increment() { commit { $0.count += 1 } }
}

extension DocSnippets.FullCounterStore {
    func add() { commit { $0.count += 1 } }
}

extension DocSnippets.FullStore {
    func rename(_ name: String) throws(DocSnippets.RenameError) {
        try commit("rename") { (state) throws(DocSnippets.RenameError) in
            guard !name.isEmpty else { throw DocSnippets.RenameError.empty }
            state.profile.name = name
        }
    }

    func sendMessage() {
        commit { $0.profile.bio = "" }
        send(.didSendMessage)
    }
}

@Suite struct DocSnippetsTests {
    typealias S = DocSnippets

    @Test func landingPage() {
        let store = S.AppStore(initialState: S.AppState())
        let names = DocsLog<String>()
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.name) { name in names.append(name) }
        }
        let count = store.derived(\.count)
        let title = Computed { "\(store.state.name) (\(store.state.count))" }
        store.increment()
        #expect(count.value == 1)
        #expect(title.value == " (1)")
        #expect(names.values == [""])  // the increment changed no name
        withExtendedLifetime(subscription) {}
    }

    @Test func gettingStarted() throws {
        let store = S.TodoStore(initialState: S.TodoState())
        let added = DocsLog<String>()
        let activities = store.sinkActivity { activity in
            if case .didAdd(let todo) = activity { added.append(todo.title) }
        }
        let counts = DocsLog<Int>()
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.todos) { todos in counts.append(todos.count) }
            changes.ifChanged(\.draft, \.showsDone) { _, _ in }
        }

        let count = store.commit { state -> Int in
            state.draft = "Buy milk"
            return state.todos.count
        }
        #expect(count == 0)
        store.add()
        store.toggle(at: 0)
        #expect(added.values == ["Buy milk"])
        #expect(counts.values == [0, 1, 1])  // the draft-only commit changed no todos

        let draft = store.derived(\.draft)
        let remaining = store.derived(from: \.todos) { todos in
            todos.filter { !$0.isDone }.count
        }
        let visible = store.derived(from: \.todos, \.showsDone) { todos, showsDone in
            showsDone ? todos : todos.filter { !$0.isDone }
        }
        let lefts = DocsLog<Int>()
        let badge = remaining.sinkValue { changes in lefts.append(changes.current) }
        let transitions = DocsLog<String>()
        let observer = remaining.didChange { old, new in transitions.append("\(old) → \(new)") }
        store.toggle(at: 0)
        #expect(lefts.values == [0, 1])
        #expect(transitions.values == ["0 → 1"])
        #expect(visible.value.count == 1)
        #expect(draft.value == "")

        let header = Computed { store.state.draft.isEmpty ? "New todo" : store.state.draft }
        #expect(header.value == "New todo")

        // The SwiftUI body reads `store.state.draft`: Observation hears only of `draft`.
        let invalidated = DocsLog<Bool>()
        withObservationTracking {
            _ = store.state.draft
        } onChange: {
            invalidated.append(true)
        }
        store.commit { $0.todos.append(S.Todo(title: "Eggs")) }
        #expect(invalidated.values.isEmpty)
        let draftBinding = store.binding(\.draft)
        draftBinding.value = "Bread"
        #expect(invalidated.values == [true])

        let counter = S.CounterStore(initialState: S.CounterState())
        counter.increment()
        #expect(counter.currentState.count == 1)
        withExtendedLifetime((activities, subscription, badge, observer)) {}
    }

    @Test func theStoreCommits() throws {
        let store = S.FullStore(initialState: S.FullState())
        try store.rename("Ada")
        #expect(throws: S.RenameError.empty) { try store.rename("") }
        #expect(store.currentState.profile.name == "Ada")
        #expect(store.version == 1)

        let origins = DocsLog<String>()
        let originLog = store.sinkState(dropsFirst: true) { changes in
            origins.append(changes.transaction[S.Origin.self])
        }
        store.commit("refresh") { state, transaction in
            transaction[S.Origin.self] = "pull to refresh"
            state.isLoading = true
        }
        #expect(origins.values == ["pull to refresh"])

        let seen = DocsLog<String>()
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.count) { count in seen.append("count \(count)") }
            changes.ifChanged(\.profile.name, \.profile.bio) { name, bio in seen.append("\(name) \(bio)") }
            changes.ifChanged({ $0.profile.name.count }, ==) { length in seen.append("\(length) letters") }
            if let isLoading = changes.takeIfChanged(\.isLoading) { seen.append("loading \(isLoading)") }
            if changes.hasChanges(\.profile) { seen.append("profile") }
            let profile: Changes<S.Profile> = changes.map(\.profile)
            withExtendedLifetime(profile) {}
        }
        #expect(seen.values == ["count 0", "Ada ", "3 letters", "loading true", "profile"])

        let totals = DocsLog<Int>()
        let total = store.sinkState(
            scan: 0,
            { total, changes in
                changes.ifChanged(\.count) { _ in total += 1 }
            }
        ) { changes, countChanges in
            totals.append(countChanges)
        }
        store.increment()
        #expect(totals.values == [1, 2])

        let counter = S.FullCounterStore(initialState: S.FullState())
        counter.add()
        #expect(counter.currentState.count == 1)
        withExtendedLifetime((originLog, subscription, total)) {}
    }

    @Test func theStoreReadsAndDerivedValues() {
        let store = S.FullStore(initialState: S.FullState())
        let counts = DocsLog<Int>()
        let title = Computed { "\(store.state.profile.name) (\(store.state.count))" }
        let log = observe { counts.append(store.state.count) }
        #expect(title.value == " (0)")

        let count = store.derived(\.count)
        let label = store.derived(from: \.count, \.profile) { count, profile in
            "\(profile.name): \(count)"
        }
        let initials = store.derived { state in
            String(state.profile.name.prefix(1))
        }
        let isEven = count.derived { $0.isMultiple(of: 2) }
        let nameLength = store.derived(\.profile).derived(\.name.count)

        let labels = DocsLog<String>()
        let subscription = label.sinkValue { changes in labels.append(changes.current) }
        let evens = DocsLog<Bool>()
        let observer = isEven.didChange { evens.append($0) }

        let pair = combined(store.derived(\.count), store.derived(\.profile.name))
        let pairs = DocsLog<String>()
        let pairLog = pair.sinkValue { changes in
            let (count, name) = changes.current
            pairs.append("\(name) \(count)")
        }

        let profile = store.binding(\.profile)
        profile.name.value = "Ada"
        store.binding(\.count).update { $0 += 1 }
        let name: ValueBinding<String> = profile.name.valueBinding
        store.commit {
            $0.profile.name = "Bo"; $0.count = 5
        }

        #expect(counts.values == [0, 1, 5])
        #expect(labels.values == [": 0", "Ada: 0", "Ada: 1", "Bo: 5"])
        #expect(evens.values == [false])
        #expect(pairs.values == [" 0", "Ada 0", "Ada 1", "Bo 5"])  // never "Bo 1"
        #expect(initials.value == "B")
        #expect(nameLength.value == 2)
        #expect(name.value == "Bo")
        withExtendedLifetime((log, subscription, observer, pairLog)) {}
    }

    @Test func theStoreFieldsMiddlewareActivitiesDispatchers() {
        let todos = Store<S.DerivedTodoState, Never>(initialState: S.DerivedTodoState())
        todos.commit { $0.todos = [S.Todo(title: "a"), S.Todo(title: "b", isDone: true)] }
        #expect(todos.currentState.remaining == 1)

        let clamp = StoreMiddleware<S.FullState>("clamp count") { state, previous, transaction in
            state.count = min(max(state.count, 0), 99)
        }
        let clamped = S.FullStore(initialState: S.FullState(), middleware: [clamp])
        clamped.commit { $0.count = 500 }
        #expect(clamped.currentState.count == 99)

        let store = S.FullStore(initialState: S.FullState())
        let dings = DocsLog<String>()
        let sounds = store.sinkActivity { activity in
            if case .didSendMessage = activity { dings.append("ding") }
        }
        store.sendMessage()
        #expect(dings.values == ["ding"])

        let profileActions = S.ProfileActions(target: store, scope: \.profile)
        let names = DocsLog<String>()
        let profileLog = profileActions.sinkState { changes in names.append(changes.current.name) }
        profileActions.rename("Ada")
        store.increment()  // another part of the state: not delivered
        #expect(names.values == ["", "Ada"])
        #expect(store.currentState.profile.name == "Ada")
        let whole = Dispatcher<S.FullState, S.AppActivity, S.FullState>(target: store)
        whole.commit { $0.count = 7 }
        #expect(store.currentState.count == 7)
        withExtendedLifetime((sounds, profileLog)) {}
    }

    @Test func theStoreAsyncAndLogging() async {
        let store = S.FullStore(initialState: S.FullState())
        let sequence = store.changes  // holds the current state, then every commit
        store.increment()
        var seen: [Int] = []
        for await changes in sequence {
            changes.ifChanged(\.count) { seen.append($0) }
            if seen.count == 2 { break }
        }
        #expect(seen == [0, 1])

        let lines = DocsLog<String>()
        let logged = S.FullStore(
            initialState: S.FullState(), name: "App", logger: PrintStoreLogger(write: { lines.append($0) }))
        logged.commit("increment") { $0.count += 1 }
        #expect(lines.values.count == 1)
        #expect(lines.values.first?.hasPrefix("[App] increment → version 1 in ") == true)

        let ported = S.MyStore()
        ported.incrementCount()
        let derivedCount: Derived<Int> = ported.derived(\.count)
        #expect(derivedCount.value == 1)
    }
}

// TheStore.md, "Async sequences and tasks".
private func fetchCount() async -> Int { 42 }

extension DocSnippets.FullStore {
    func refresh() {
        commit { $0.isLoading = true }
        task("refresh") { [weak self] in
            let count = await fetchCount()
            guard !Task.isCancelled else { return }
            self?.commit {
                $0.count = count; $0.isLoading = false
            }
        }
    }
}
