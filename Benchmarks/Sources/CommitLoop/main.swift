#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Ripple
import RippleModels
import RippleStore

// `CommitLoop SCENARIO N`: sets up one store scenario of the benchmark's store and reducer
// tables (as `StoreBench.swift` and `ReducerBench.swift` do) and makes N commits or sends,
// untimed. `count-instructions.sh --store` runs it under callgrind with N = 0 and N = 10 000,
// so that the difference is the instructions of 10 000 commits, free of the machine's noise.

struct State: Equatable, Sendable {
    var count = 0
    var name = ""
    var values: [Int] = []
}

/// `State` with its fields listed: a commit looks only at the readers of the fields it changed.
struct FieldsState: StateFields {
    var count = 0
    var name = ""
    var values: [Int] = []
    static let stateFields: [StateField<FieldsState>] = [StateField(\.count), StateField(\.name), StateField(\.values)]
}

/// A main-actor model, as an app target (main-actor by default) declares one.
@MainActor
final class MainActorCounter: ObservableModel {
    @Observed var count = 0
}

enum Action: Sendable {
    case increment
    /// Returns `.send(.increment)`: the reducer's `.send` effect round trip.
    case ping
}

struct CountReducer: Reducer {
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .ping:
            return .send(.increment)
        }
    }
}

/// A key path handed to `@Sendable` closures (key paths are immutable).
struct SendableKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: KeyPath<Root, Value>
}

/// A list's row model, as an app writes one without macros.
final class Row: @unchecked Sendable {
    @Observed var title: String
    @Observed var count: Int
    @Observed var isDone = false

    init(title: String, count: Int) {
        self.title = title
        self.count = count
    }
}

/// Counts closure runs, so that no body is empty.
final class Counter: @unchecked Sendable {
    var n = 0
}

let width = 1000
let scenarios = [
    "commit0", "commit0Selected", "commit10", "commit1000", "capturing1000", "derived10", "selectors1000", "select1000", "readers1000",
    "send",
    "sendEffect", "stored0",
    "fields0", "fieldsSelectors1000", "fieldsUnread10000", "mainCommit10", "mainDerived10", "mainDerivedFrom10",
    "mainSelect1000",
    "mainSinks10", "event10", "mainEvent10", "batch10", "binding", "bindingElement", "mainBinding", "modelRead", "modelWrite", "modelBinding", "createDerived", "mainSend",
    "mainSendEffect",
    "modelFirstRead",
    "createEntityObserver",
]
let arguments = CommandLine.arguments
guard arguments.count == 3, let commits = Int(arguments[2]), commits >= 0, scenarios.contains(arguments[1]) else {
    print("usage: CommitLoop SCENARIO N  (SCENARIO: \(scenarios.joined(separator: ", ")))")
    exit(2)
}
let scenario = arguments[1]
let runs = Counter()
var keepAlive: [Any] = []

switch scenario {
case "mainCommit10":
    // A `MainActorStore` (an app target's default) with ten `sinkState` subscribers. They count
    // with `&+=`, unlike the `Store` scenarios' `+=`: identical closures, specialized into both
    // stores' inlined `sinkState`, were merged by the optimizer behind a thunk, which added 8
    // instructions per subscriber to `commit1000` (44 787 -> 52 788) without being the store's.
    MainActor.assumeIsolated {
        let store = MainActorStore<State, Never>(initialState: State())
        for i in 0..<10 {
            keepAlive.append(
                i == 0
                    ? store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.count) { _ in runs.n &+= 1 } }
                    : store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.name) { _ in runs.n &+= 1 } })
        }
        store.commit { $0.count += 1 }
        for _ in 0..<commits { store.commit { $0.count += 1 } }
        print(store.currentState.count, runs.n)
    }
case "mainDerived10", "mainDerivedFrom10":
    // A `MainActorStore` with ten derived values (one on `count`, nine on `name`; by key path,
    // or with a transform for `mainDerivedFrom10`), each read by an `observeOnMainActor`
    // reaction.
    MainActor.assumeIsolated {
        let store = MainActorStore<State, Never>(initialState: State())
        if scenario == "mainDerivedFrom10" {
            let count = store.derived(from: \.count) { $0 &* 2 }
            keepAlive.append(observeOnMainActor { runs.n &+= count.value })
            for _ in 1..<10 {
                let name = store.derived(from: \.name) { $0.count }
                keepAlive.append(observeOnMainActor { runs.n &+= name.value })
            }
        } else {
            let count = store.derived(\.count)
            keepAlive.append(observeOnMainActor { runs.n &+= count.value })
            for _ in 1..<10 {
                let name = store.derived(\.name)
                keepAlive.append(observeOnMainActor { runs.n &+= name.value.count })
            }
        }
        store.commit { $0.count += 1 }
        for _ in 0..<commits { store.commit { $0.count += 1 } }
        print(store.currentState.count, runs.n)
    }
case "mainSelect1000":
    // `select1000` on a `MainActorStore`: each commit runs all 1000 selectors on the main actor
    // and writes the one whose result changed. Its selector is `&* 3`, not `select1000`'s
    // `&* 2`: identical closures were merged by the optimizer behind a thunk, which added 4
    // instructions per selector to `select1000` (83 648 -> 79 648) without being the store's.
    // The two stores' own update closures are merged the same way (71 648 without this
    // scenario in the binary), as they would be in an app that uses both stores.
    MainActor.assumeIsolated {
        let store = MainActorStore<State, Never>(initialState: State(values: Array(repeating: 0, count: width)))
        for i in 0..<width {
            let selected = store.select { $0.values[i] &* 3 }
            keepAlive.append(selected)
            keepAlive.append(selected.onChange { _, _ in runs.n &+= 1 })
        }
        store.commit { $0.values[0] += 1 }
        for k in 0..<commits { store.commit { $0.values[k % width] += 1 } }
        print(store.currentState.values[0], runs.n)
    }
case "event10":
    // An `Event` with ten handlers: what a send costs beside the handlers themselves.
    let event = Event<Int>()
    for _ in 0..<10 { keepAlive.append(event.subscribe { runs.n &+= $0 }) }
    for i in 0..<commits { event.send(i) }
    print(runs.n)
case "mainEvent10":
    // `event10` with main-actor handlers (`subscribeOnMainActor`), sent on the main thread: each
    // value is handed to each handler at once.
    MainActor.assumeIsolated {
        let event = Event<Int>()
        for _ in 0..<10 { keepAlive.append(event.subscribeOnMainActor { runs.n &+= $0 }) }
        for i in 0..<commits { event.send(i) }
        print(runs.n)
    }
case "batch10":
    // A batch of ten writes (staged, then committed together), read by one reaction.
    let values = (0..<10).map { Stored($0) }
    keepAlive.append(observe { runs.n &+= values.reduce(0) { $0 &+ $1.value } })
    for i in 0..<commits { batch { for value in values { value.value = i } } }
    print(runs.n)
case "stored0":
    // The floor of publishing through the core: a write to a `Stored` nobody reads.
    let stored = Stored(0)
    for i in 0..<commits { stored.value = i }
    print(stored.value)
case "createEntityObserver":
    // A list's row observing its entity: each "commit" makes one `store.entity(id, in:)` with
    // one sink, for an id of its own.
    struct Todo: Identifiable, Equatable, Sendable {
        var id: Int
        var title = ""
    }
    struct Tables: Equatable, Sendable {
        var todos = EntityTable<Todo>()
    }
    var tables = Tables()
    try! tables.todos.insert(contentsOf: (0...10_000).map { Todo(id: $0) })
    let store = Store<Tables, Never>(initialState: tables)
    let first = store.entity(10_000, in: \Tables.todos)
    keepAlive.append(first.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    for k in 0..<min(commits, 10_000) {
        let todo = store.entity(k, in: \Tables.todos)
        keepAlive.append(todo)
        keepAlive.append(todo.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    }
    print(keepAlive.count)
case "modelFirstRead":
    // A model made and read once (a list's row): each "commit" makes one and reads its three
    // `@Observed` properties, which are named `Row.title` etc. on that first access.
    var total = 0
    for k in 0..<commits {
        let row = Row(title: "row \(k)", count: k)
        total &+= row.count &+ row.title.utf8.count &+ (row.isDone ? 1 : 0)
        keepAlive.append(row)
    }
    print(total)
case "mainSend", "mainSendEffect":
    // A trivial `send` to a `MainActorReducerStore` (an app target's default reducer store), or
    // one whose effect sends another action at once (`.send`: two reductions).
    MainActor.assumeIsolated {
        let store = MainActorReducerStore(reducer: CountReducer(), initialState: State())
        let action: Action = scenario == "mainSend" ? .increment : .ping
        store.send(action)
        for _ in 0..<commits { store.send(action) }
        print(store.currentState.count)
    }
case "send", "sendEffect":
    let store = ReducerStore(reducer: CountReducer(), initialState: State())
    let action: Action = scenario == "send" ? .increment : .ping
    store.send(action)
    for _ in 0..<commits { store.send(action) }
    print(store.currentState.count)
case "binding", "bindingElement":
    // A two-way binding's write (a text field's keystroke): one commit through the key path.
    let store = Store<State, Never>(initialState: State(values: [0]))
    if scenario == "binding" {
        let count = store.binding(\.count)
        count.value += 1
        for _ in 0..<commits { count.value &+= 1 }
    } else {
        let first = store.binding(\.values[0])
        first.value += 1
        for _ in 0..<commits { first.value &+= 1 }
    }
    print(store.currentState.count, store.currentState.values[0])
case "mainSinks10":
    // A `Store` (a state shared with other threads) whose screen subscribes on the main actor:
    // ten `sinkStateOnMainActor` subscribers, commits made on the main thread.
    MainActor.assumeIsolated {
        let store = Store<State, Never>(initialState: State())
        for i in 0..<10 {
            keepAlive.append(
                i == 0
                    ? store.sinkStateOnMainActor(dropsFirst: true) { changes in
                        changes.ifChanged(\.count) { _ in runs.n &+= 1 }
                    }
                    : store.sinkStateOnMainActor(dropsFirst: true) { changes in
                        changes.ifChanged(\.name) { _ in runs.n &+= 1 }
                    })
        }
        store.commit { $0.count += 1 }
        for _ in 0..<commits { store.commit { $0.count += 1 } }
        print(store.currentState.count, runs.n)
    }
case "mainBinding":
    // A main-actor app's keystroke: a `MainActorStore` binding's write, one commit, with one
    // `observeOnMainActor` reaction reading the field (the text field's label).
    MainActor.assumeIsolated {
        let store = MainActorStore<State, Never>(initialState: State())
        let count = store.binding(\.count)
        let derived = store.derived(\.count)
        keepAlive.append(observeOnMainActor { runs.n &+= derived.value })
        count.value += 1
        for _ in 0..<commits { count.value &+= 1 }
        print(store.currentState.count, runs.n)
    }
case "modelRead":
    // A main-actor model's property read outside reactions (a view's code reading its model).
    // Each "commit" is one read.
    MainActor.assumeIsolated {
        let model = MainActorCounter()
        model.count = 1
        var total = 0
        for _ in 0..<commits { total &+= model.count }
        print(total)
    }
case "modelWrite":
    // A main-actor model's property written directly (`model.count += 1`), with one
    // `observeOnMainActor` reaction reading it.
    MainActor.assumeIsolated {
        let model = MainActorCounter()
        keepAlive.append(observeOnMainActor { runs.n &+= model.count })
        model.count += 1
        for _ in 0..<commits { model.count &+= 1 }
        print(model.count, runs.n)
    }
case "modelBinding":
    // A main-actor app's keystroke into a model (DidUpdate's two-way binding): a write through
    // `model.bindings.count` of a main-actor `ObservableModel`, with one `observeOnMainActor`
    // reaction reading the property (the text field's label).
    MainActor.assumeIsolated {
        let model = MainActorCounter()
        let count = model.bindings.count
        keepAlive.append(observeOnMainActor { runs.n &+= model.count })
        count.value += 1
        for _ in 0..<commits { count.value &+= 1 }
        print(model.count, runs.n)
    }
case "createDerived":
    // Making a store's derived value at a key path, with one subscriber (a list's row model):
    // each "commit" makes one, at an element of its own.
    let store = Store<State, Never>(initialState: State(values: Array(repeating: 0, count: 10_001)))
    let derived = store.derived(from: \State.values[10_000]) { $0 &* 2 }
    keepAlive.append(derived.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    for k in 0..<min(commits, 10_000) {
        let derived = store.derived(from: \State.values[k]) { $0 &* 2 }
        keepAlive.append(derived)
        keepAlive.append(derived.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    }
    print(keepAlive.count)
case "selectors1000", "readers1000":
    let store = Store<State, Never>(initialState: State(values: Array(repeating: 0, count: width)))
    for i in 0..<width {
        if scenario == "selectors1000" {
            let derived = store.derived(from: \State.values[i]) { $0 &* 2 }
            keepAlive.append(derived)
            keepAlive.append(derived.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
        } else {
            let path = SendableKeyPath(keyPath: \State.values[i])
            keepAlive.append(observe { runs.n &+= store.state[dynamicMember: path.keyPath] })
        }
    }
    store.commit { $0.values[0] += 1 }
    for k in 0..<commits { store.commit { $0.values[k % width] += 1 } }
    print(store.currentState.values[0], runs.n)
case "select1000":
    // Closure selectors (`Store.select`): each commit runs all 1000 and writes the one whose
    // result changed.
    let store = Store<State, Never>(initialState: State(values: Array(repeating: 0, count: width)))
    for i in 0..<width {
        let derived = store.select { $0.values[i] &* 2 }
        keepAlive.append(derived)
        keepAlive.append(derived.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    }
    store.commit { $0.values[0] += 1 }
    for k in 0..<commits { store.commit { $0.values[k % width] += 1 } }
    print(store.currentState.values[0], runs.n)
case "fields0":
    let store = Store<FieldsState, Never>(initialState: FieldsState())
    store.commit { $0.count += 1 }
    for _ in 0..<commits { store.commit { $0.count += 1 } }
    print(store.currentState.count)
case "fieldsSelectors1000", "fieldsUnread10000":
    let readers = scenario == "fieldsSelectors1000" ? width : 10 * width
    let store = Store<FieldsState, Never>(initialState: FieldsState(values: Array(repeating: 0, count: readers)))
    for i in 0..<readers {
        let derived = store.derived(from: \FieldsState.values[i]) { $0 &* 2 }
        keepAlive.append(derived)
        keepAlive.append(derived.sinkValue(dropsFirst: true) { _ in runs.n += 1 })
    }
    store.commit { $0.values[0] += 1 }
    if readers == width {
        for k in 0..<commits { store.commit { $0.values[k % width] += 1 } }
    } else {
        for _ in 0..<commits { store.commit { $0.count += 1 } }
    }
    print(store.currentState.values[0], runs.n)
case "capturing1000":
    // `commit1000` with subscribers that capture what they update, as an app's capture `self`:
    // the optimizer cannot specialize such a closure into the store's `sinkState`, which then
    // calls it with a `Changes` it made (the benchmark package's subscriber rows are of this
    // kind).
    let store = Store<State, Never>(initialState: State())
    let counter = Counter()
    keepAlive.append(store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.count) { _ in counter.n += 1 } })
    for _ in 1..<width {
        keepAlive.append(store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.name) { _ in counter.n += 1 } })
    }
    store.commit { $0.count += 1 }
    for _ in 0..<commits { store.commit { $0.count += 1 } }
    print(store.currentState.count, counter.n)
default:
    let store = Store<State, Never>(initialState: State())
    let n = scenario == "commit10" || scenario == "derived10" ? 10 : scenario == "commit1000" ? 1000 : 0
    for i in 0..<n {
        if scenario == "derived10" {
            keepAlive.append(
                i == 0
                    ? store.derived(\.count).sinkValue(dropsFirst: true) { _ in runs.n += 1 }
                    : store.derived(\.name).sinkValue(dropsFirst: true) { _ in runs.n += 1 })
        } else if i == 0 {
            keepAlive.append(
                store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.count) { _ in runs.n += 1 } })
        } else {
            keepAlive.append(
                store.sinkState(dropsFirst: true) { changes in changes.ifChanged(\.name) { _ in runs.n += 1 } })
        }
    }
    if scenario == "commit0Selected" {
        // `commit0` on a store that had a closure selector, released before the commits: they
        // should cost what `commit0`'s cost.
        runs.n += store.select { $0.count &* 5 }.value
    }
    store.commit { $0.count += 1 }
    for _ in 0..<commits { store.commit { $0.count += 1 } }
    print(store.currentState.count, runs.n)
}
withExtendedLifetime(keepAlive) {}
