import Foundation
import RippleStore

// The store benchmarks of issue 10: RippleStore's commits, subscribers, derived selectors,
// fine-grained readers and concurrent commits, each next to the same work done by two local
// baselines measured in the same run:
//
// - `LockedStruct`: a plain struct behind a mutex, updated by hand, and the subscribers that
//   care about the change called by hand (the floor: no comparison, no bookkeeping).
// - `VergeStyleStore`: a store as Verge builds one: a commit mutates the state under a mutex
//   and hands (previous, current) to every subscriber, each of which compares what it needs
//   (`ifChanged`) or runs its selector and compares the output, on every commit.
//
// Times are nanoseconds per commit (delivery included). Each benchmark also counts the
// closures that ran per commit and asserts the counts (in quick mode too).

// MARK: Local baselines

/// A pthread mutex (the baselines' lock; Ripple uses its own).
final class BenchMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// The state every store benchmark commits to.
struct BenchState: Equatable, Sendable {
    var count = 0
    var name = ""
    var values: [Int] = []
}

/// The states the selector and reader rows run on: a plain `Equatable` one, and one that lists
/// its fields (`StateFields`), so that a commit looks only at the readers under the fields it
/// changed. Each builds its key paths concretely (a key path made in generic code goes through
/// the protocol's witness and matches no field).
protocol BenchStateKind: Equatable, Sendable {
    init(width: Int)
    static func valuePath(_ index: Int) -> KeyPath<Self, Int>
    mutating func bumpValue(_ index: Int)
    mutating func bumpCount()
    var countValue: Int { get }
    func value(_ index: Int) -> Int
    /// The row-name suffix.
    static var kind: String { get }
}

extension BenchState: BenchStateKind {
    init(width: Int) { self.init(values: Array(repeating: 0, count: width)) }
    static func valuePath(_ index: Int) -> KeyPath<BenchState, Int> { \BenchState.values[index] }
    mutating func bumpValue(_ index: Int) { values[index] += 1 }
    mutating func bumpCount() { count += 1 }
    var countValue: Int { count }
    func value(_ index: Int) -> Int { values[index] }
    static var kind: String { "" }
}

/// `BenchState` with its fields listed.
struct BenchFieldsState: StateFields, BenchStateKind {
    var count = 0
    var name = ""
    var values: [Int] = []

    static let stateFields: [StateField<BenchFieldsState>] = [
        StateField(\.count), StateField(\.name), StateField(\.values),
    ]

    init(width: Int) { values = Array(repeating: 0, count: width) }
    static func valuePath(_ index: Int) -> KeyPath<BenchFieldsState, Int> { \BenchFieldsState.values[index] }
    mutating func bumpValue(_ index: Int) { values[index] += 1 }
    mutating func bumpCount() { count += 1 }
    var countValue: Int { count }
    func value(_ index: Int) -> Int { values[index] }
    static var kind: String { ", StateFields" }
}

/// What a Verge-style subscriber receives: the state before and after the commit.
struct BenchChanges<State> {
    let previous: State
    let current: State
    let version: UInt64

    @inline(__always)
    func ifChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>, _ perform: (Value) -> Void) {
        let value = current[keyPath: keyPath]
        if previous[keyPath: keyPath] != value { perform(value) }
    }
}

/// A Verge-style store: every commit reaches every subscriber, which compares what it needs.
/// Commits are serialized by one mutex held across the mutation and the delivery, so that
/// deliveries are in commit order (Verge serializes its emitter's deliveries likewise).
final class VergeStyleStore<State: Sendable>: @unchecked Sendable {
    private let gate = BenchMutex()
    private var state: State
    private var version: UInt64 = 0
    private var subscribers: [(BenchChanges<State>) -> Void] = []

    init(_ state: State) { self.state = state }

    func sink(_ subscriber: @escaping (BenchChanges<State>) -> Void) {
        gate.lock()
        subscribers.append(subscriber)
        gate.unlock()
    }

    var current: State {
        gate.lock()
        defer { gate.unlock() }
        return state
    }

    func commit(_ mutation: (inout State) -> Void) {
        gate.lock()
        let previous = state
        mutation(&state)
        version += 1
        let changes = BenchChanges(previous: previous, current: state, version: version)
        for subscriber in subscribers { subscriber(changes) }
        gate.unlock()
    }
}

/// The floor: a struct behind a mutex; the code that changes a field calls by hand the
/// subscribers of that field (under the mutex, so that concurrent commits deliver in order).
final class LockedStruct: @unchecked Sendable {
    private let mutex = BenchMutex()
    private var state: BenchState
    /// Subscribers of `count` (called on every change of it).
    var countSubscribers: [(Int) -> Void] = []
    /// Subscribers of `name` (never called here: no benchmark changes the name).
    var nameSubscribers: [(String) -> Void] = []
    /// One subscriber per element of `values`.
    var valueSubscribers: [(Int) -> Void] = []

    init(_ state: BenchState) { self.state = state }

    var current: BenchState {
        mutex.lock()
        defer { mutex.unlock() }
        return state
    }

    func incrementCount() {
        mutex.lock()
        state.count += 1
        let count = state.count
        for subscriber in countSubscribers { subscriber(count) }
        mutex.unlock()
    }

    func incrementValue(at index: Int) {
        mutex.lock()
        state.values[index] += 1
        let value = state.values[index]
        valueSubscribers[index](value)
        mutex.unlock()
    }
}

/// A value a `@Sendable` closure updates (from one thread at a time in these benchmarks).
final class Recorder: @unchecked Sendable {
    var values: [Int] = []
}

/// What the subscribers of a 0 / 10 / 1000-subscriber row did: one follows `count`, which every
/// commit changes, the others `name`, which none changes. Shared by the Ripple, MainActorStore
/// and Verge-style columns, so that each asserts the same and reports the same.
///
/// The counts are its own fields, not `Counter`s: a subscriber reaching a counter through the
/// tally retained and released it, which cost the Verge-style column 100 ns a commit with ten
/// subscribers.
final class SubscriberTally: @unchecked Sendable {
    var lastCount = 0
    var countRuns = 0
    var nameRuns = 0
    var subscriberRuns = 0

    /// The subscriber that follows `count`.
    @inline(__always)
    func followCount(_ changes: Changes<BenchState>) {
        subscriberRuns += 1
        changes.ifChanged(\.count) { count in
            countRuns += 1
            lastCount = count
        }
    }

    /// A subscriber that follows `name`.
    @inline(__always)
    func followName(_ changes: Changes<BenchState>) {
        subscriberRuns += 1
        changes.ifChanged(\.name) { _ in nameRuns += 1 }
    }

    /// Fails unless the state's `count` and the subscribers saw every one of `made` commits.
    func check(_ row: String, subscribers n: Int, count: Int, made: Int) throws {
        try expect(count == made, row, "count == \(count) after \(made) commits")
        guard n > 0 else { return }
        try expect(
            countRuns == made && lastCount == made, row,
            "the count subscriber saw \(countRuns) changes, last \(lastCount), after \(made) commits")
        try expect(nameRuns == 0, row, "the name subscribers saw \(nameRuns) changes, expected 0")
    }

    /// The row's "runs per commit" cell.
    func ran(subscribers n: Int) -> String {
        n == 0 ? "-" : "\(format(Double(subscriberRuns) / Double(countRuns))) subscribers, 1 did work"
    }
}

/// A key path handed to `@Sendable` closures (key paths are immutable).
struct SendableKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: KeyPath<Root, Value>
}

// MARK: The rows

enum StoreBench {
    /// The columns of the store table.
    enum Column: CaseIterable {
        case ripple, rippleDerived, mainActor, locked, verge

        var title: String {
            switch self {
            case .ripple: "Ripple"
            case .rippleDerived: "Ripple, derived sinks"
            case .mainActor: "MainActorStore"
            case .locked: "locked struct"
            case .verge: "Verge-style"
            }
        }

        /// The `--columns` words that select it.
        var keys: Set<String> {
            switch self {
            case .ripple, .rippleDerived: ["ripple"]
            case .mainActor: ["ripple", "mainactor"]
            case .locked: ["locked", "floor"]
            case .verge: ["verge"]
            }
        }

        /// A column measured for comparison, not one of Ripple's: its cells say how many times
        /// its time Ripple's takes.
        var isBaseline: Bool { self == .locked || self == .verge }
    }

    /// One cell: the time per commit, and what ran per commit.
    struct Cell {
        var outcome: Outcome
        var ran = ""
    }

    struct Row {
        let name: String
        var cells: [Column: Cell] = [:]
        var failures: [String] = []
    }

    typealias Run = () throws -> (Stats, String)

    struct Benchmark {
        let name: String
        let columns: [Column: Run]
    }

    static let subscriberCounts = [0, 10, 1000]
    static let width = 1000

    static var benchmarks: [Benchmark] {
        subscriberCounts.map { n in
            Benchmark(
                name: "store commit, \(n) subscribers",
                columns: [
                    .ripple: { try commitRipple(subscribers: n, derivedSinks: false) },
                    .rippleDerived: { try commitRipple(subscribers: n, derivedSinks: true) },
                    .mainActor: { try commitMainActor(subscribers: n) },
                    .locked: { try commitLocked(subscribers: n) },
                    .verge: { try commitVerge(subscribers: n) },
                ])
        } + [
            Benchmark(
                name: "store commit, 0 subscribers, StateFields",
                columns: [
                    .ripple: commitFieldsRipple, .locked: { try commitLocked(subscribers: 0) },
                    .verge: { try commitVerge(subscribers: 0) },
                ])
        ]
            + [BenchState.self, BenchFieldsState.self].flatMap { (kind: any BenchStateKind.Type) in
                [
                    Benchmark(
                        name: "store \(width) derived selectors\(kind.kind)",
                        columns: [
                            .ripple: { try derivedRipple(kind) }, .locked: derivedLocked, .verge: derivedVerge,
                        ]),
                    Benchmark(
                        name: "store \(width) fine-grained readers\(kind.kind)",
                        columns: [
                            .ripple: { try readersRipple(kind) }, .locked: readersLocked, .verge: readersVerge,
                        ]),
                    Benchmark(
                        name: "store commit to an unread field, \(wide) selectors\(kind.kind)",
                        columns: [
                            .ripple: { try unreadRipple(kind) }, .locked: unreadLocked, .verge: unreadVerge,
                        ]),
                ]
            }
            + [
                Benchmark(
                    name: "store \(width) closure selectors",
                    columns: [
                        .ripple: { try selectRipple(width, unread: false) }, .locked: derivedLocked,
                        .verge: derivedVerge,
                    ]),
                Benchmark(
                    name: "store commit to an unread field, \(wide) closure selectors",
                    columns: [
                        .ripple: { try selectRipple(wide, unread: true) }, .locked: unreadLocked, .verge: unreadVerge,
                    ]),
            ]
            + [2, 8].map { threads in
                Benchmark(
                    name: "store commits from \(threads) threads",
                    columns: [
                        .ripple: { try threadsRipple(threads) }, .locked: { try threadsLocked(threads) },
                        .verge: { try threadsVerge(threads) },
                    ])
            } + [
                Benchmark(
                    name: "Stored += from 8 threads",
                    columns: [
                        .ripple: incrementsRipple, .locked: incrementsLocked,
                    ])
            ]
    }

    /// Whether `--filter` selects any store row.
    static var isSelected: Bool {
        guard let filter = config.filter else { return true }
        return benchmarks.contains { $0.name.localizedCaseInsensitiveContains(filter) }
    }

    static func measure() -> [Row] {
        var rows: [Row] = []
        for benchmark in benchmarks {
            if let filter = config.filter, !benchmark.name.localizedCaseInsensitiveContains(filter) { continue }
            var row = Row(name: benchmark.name)
            for column in Column.allCases {
                guard let run = benchmark.columns[column] else { continue }
                if let columns = config.columns, columns.isDisjoint(with: column.keys) { continue }
                let t0 = now()
                do {
                    let (stats, ran) = try run()
                    row.cells[column] = Cell(outcome: .measured(stats), ran: ran)
                } catch {
                    let message = "\(benchmark.name) (\(column.title)): \(error)"
                    row.cells[column] = Cell(outcome: .failed(message))
                    row.failures.append(message)
                }
                log(
                    "  \(benchmark.name) / \(column.title): \(storeCell(row.cells[column]!, base: nil))  [\(format(Double(now() - t0) / 1e9)) s]"
                )
            }
            rows.append(row)
        }
        return rows
    }

    // MARK: Sampling

    /// Commits per sample: `full` in a full run, a tenth of it in a quick one.
    static func perSample(_ full: Int) -> Int { config.quick ? max(full / 10, 1) : full }

    /// Samples of `commits` calls of `commit` (after a warm-up of a tenth of that), in
    /// nanoseconds per commit. `commit` gets the number of the commit (from 0, counting the
    /// warm-up); `check` runs after each sample with the number of commits made so far.
    static func sampleCommits(_ commits: Int, _ commit: (Int) -> Void, check: (Int) throws -> Void) throws -> Stats {
        var made = 0
        for _ in 0..<max(commits / 10, 1) { commit(made); made += 1 }
        try check(made)
        var stats = try sample(
            maximum: config.samples, minimum: config.minimumSamples, budget: config.quick ? 0.3 : 2.0
        ) {
            let start = now()
            for _ in 0..<commits { commit(made); made += 1 }
            let elapsed = now() - start
            try check(made)
            return elapsed
        }
        // sample() reports milliseconds per sample: make it nanoseconds per commit.
        stats.samples = stats.samples.map { $0 * 1e6 / Double(commits) }
        return stats
    }

    // MARK: 1. Commit throughput with 0, 10 and 1000 subscribers

    // n subscribers: n - 1 use ifChanged(\.name), which no commit changes, and one uses
    // ifChanged(\.count), which every commit changes.

    static func commitRipple(subscribers n: Int, derivedSinks: Bool) throws -> (Stats, String) {
        let name = "store commit, \(n) subscribers (Ripple\(derivedSinks ? ", derived sinks" : ""))"
        let store = Store<BenchState, Never>(initialState: BenchState())
        let tally = SubscriberTally()
        var subscriptions: [Subscription] = []
        if n > 0 {
            if derivedSinks {
                // Ripple's key-path subscribers: store.derived(\.name) is one node shared by
                // every subscriber of \.name; a commit that leaves the name alone runs none.
                subscriptions.append(
                    store.derived(\.count).sinkValue(dropsFirst: true) { changes in
                        tally.subscriberRuns += 1
                        tally.countRuns += 1
                        tally.lastCount = changes.current
                    })
                for _ in 1..<n {
                    subscriptions.append(
                        store.derived(\.name).sinkValue(dropsFirst: true) { _ in
                            tally.subscriberRuns += 1
                            tally.nameRuns += 1
                        })
                }
            } else {
                subscriptions.append(store.sinkState(dropsFirst: true) { tally.followCount($0) })
                for _ in 1..<n {
                    subscriptions.append(store.sinkState(dropsFirst: true) { tally.followName($0) })
                }
            }
        }
        let stats = try sampleCommits(
            perSample(n >= 1000 ? 1_000 : 50_000),
            { _ in
                store.commit { $0.count += 1 }
            },
            check: { made in
                try tally.check(name, subscribers: n, count: store.currentState.count, made: made)
            })
        withExtendedLifetime(subscriptions) {}
        return (stats, tally.ran(subscribers: n))
    }

    /// A commit with no subscriber to a state that lists its fields (it publishes in a batch,
    /// comparing the fields some reader reads: none here).
    static func commitFieldsRipple() throws -> (Stats, String) {
        let name = "store commit, 0 subscribers, StateFields (Ripple)"
        let store = Store<BenchFieldsState, Never>(initialState: BenchFieldsState(width: 0))
        let stats = try sampleCommits(
            perSample(50_000),
            { _ in
                store.commit { $0.count += 1 }
            },
            check: { made in
                let count = store.currentState.count
                try expect(count == made, name, "count == \(count) after \(made) commits")
            })
        return (stats, "-")
    }

    static func commitLocked(subscribers n: Int) throws -> (Stats, String) {
        let name = "store commit, \(n) subscribers (locked struct)"
        let store = LockedStruct(BenchState())
        let lastCount = Counter()
        let countRuns = Counter()
        let nameRuns = Counter()
        if n > 0 {
            store.countSubscribers.append { count in
                countRuns.n += 1
                lastCount.n = count
            }
            for _ in 1..<n { store.nameSubscribers.append { _ in nameRuns.n += 1 } }
        }
        let stats = try sampleCommits(
            perSample(n >= 1000 ? 1_000 : 50_000),
            { _ in
                store.incrementCount()
            },
            check: { made in
                let count = store.current.count
                try expect(count == made, name, "count == \(count) after \(made) commits")
                if n > 0 {
                    try expect(
                        countRuns.n == made && lastCount.n == made, name,
                        "the count subscriber saw \(countRuns.n) changes, last \(lastCount.n)")
                    try expect(nameRuns.n == 0, name, "the name subscribers saw \(nameRuns.n) changes")
                }
            })
        return (stats, n == 0 ? "-" : "1 subscriber")
    }

    /// `commitRipple` on a `MainActorStore` (an app target's default store), on the main
    /// actor (the main queue, drained by the process's first thread, as in an app).
    static func commitMainActor(subscribers n: Int) throws -> (Stats, String) {
        try ReducerBench.onMainActor {
            let name = "store commit, \(n) subscribers (MainActorStore)"
            let store = MainActorStore<BenchState, Never>(initialState: BenchState())
            let tally = SubscriberTally()
            var subscriptions: [Subscription] = []
            if n > 0 {
                subscriptions.append(store.sinkState(dropsFirst: true) { tally.followCount($0) })
                for _ in 1..<n {
                    subscriptions.append(store.sinkState(dropsFirst: true) { tally.followName($0) })
                }
            }
            let stats = try sampleCommits(
                perSample(n >= 1000 ? 1_000 : 50_000),
                { _ in
                    store.commit { $0.count += 1 }
                },
                check: { made in
                    try tally.check(name, subscribers: n, count: store.currentState.count, made: made)
                })
            withExtendedLifetime(subscriptions) {}
            return (stats, tally.ran(subscribers: n))
        }
    }

    static func commitVerge(subscribers n: Int) throws -> (Stats, String) {
        let name = "store commit, \(n) subscribers (Verge-style)"
        let store = VergeStyleStore(BenchState())
        let tally = SubscriberTally()
        if n > 0 {
            store.sink { changes in
                tally.subscriberRuns += 1
                changes.ifChanged(\.count) { count in
                    tally.countRuns += 1
                    tally.lastCount = count
                }
            }
            for _ in 1..<n {
                store.sink { changes in
                    tally.subscriberRuns += 1
                    changes.ifChanged(\.name) { _ in tally.nameRuns += 1 }
                }
            }
        }
        let stats = try sampleCommits(
            perSample(n >= 1000 ? 1_000 : 50_000),
            { _ in
                store.commit { $0.count += 1 }
            },
            check: { made in
                try tally.check(name, subscribers: n, count: store.current.count, made: made)
            })
        return (stats, tally.ran(subscribers: n))
    }

    // MARK: 2. 1000 derived selectors, a commit touches one field

    // Selector i derives values[i] * 2 and has one subscriber; commit k increments
    // values[k % 1000]. Counted: selector closures run, subscribers called.

    static var initialValues: BenchState { BenchState(values: Array(repeating: 0, count: width)) }

    static func derivedRipple(_ kind: any BenchStateKind.Type) throws -> (Stats, String) {
        // With the concrete state type, as an app's code calls the store: opened from the
        // existential, the generic function would run unspecialized, and so would the store's
        // inlinable entry points inside it.
        kind == BenchState.self ? try derivedRipple(of: BenchState.self) : try derivedRipple(of: BenchFieldsState.self)
    }

    static func derivedRipple<S: BenchStateKind>(of _: S.Type) throws -> (Stats, String) {
        let name = "store \(width) derived selectors\(S.kind) (Ripple)"
        let store = Store<S, Never>(initialState: S(width: width))
        let selectorRuns = Counter()
        let deliveries = Counter()
        var deriveds: [Derived<Int>] = []
        var subscriptions: [Subscription] = []
        for i in 0..<width {
            let derived = store.derived(from: S.valuePath(i)) { value in
                selectorRuns.n += 1
                return value &* 2
            }
            subscriptions.append(derived.sinkValue(dropsFirst: true) { _ in deliveries.n += 1 })
            deriveds.append(derived)
        }
        try expect(selectorRuns.n == width, name, "\(selectorRuns.n) selector runs to build, expected \(width)")
        selectorRuns.n = 0
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.commit { $0.bumpValue(k % width) }
            },
            check: { made in
                try expect(
                    selectorRuns.n == made, name,
                    "\(selectorRuns.n) selector runs in \(made) commits, expected 1 per commit")
                try expect(
                    deliveries.n == made, name, "\(deliveries.n) deliveries in \(made) commits, expected 1 per commit")
                let expected = 2 * ((made - 1) / width + 1)
                try expect(
                    deriveds[0].value == expected, name, "selector 0 == \(deriveds[0].value), expected \(expected)")
            })
        withExtendedLifetime((deriveds, subscriptions)) {}
        return (stats, "\(format(Double(selectorRuns.n) / Double(deliveries.n))) selector")
    }

    static func derivedLocked() throws -> (Stats, String) {
        let name = "store \(width) derived selectors (locked struct)"
        let store = LockedStruct(initialValues)
        let selectorRuns = Counter()
        let deliveries = Counter()
        let outputs = Recorder()
        outputs.values = Array(repeating: 0, count: width)
        for i in 0..<width {
            store.valueSubscribers.append { value in
                selectorRuns.n += 1
                let output = value &* 2
                if output != outputs.values[i] {
                    outputs.values[i] = output
                    deliveries.n += 1
                }
            }
        }
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.incrementValue(at: k % width)
            },
            check: { made in
                try expect(selectorRuns.n == made, name, "\(selectorRuns.n) selector runs in \(made) commits")
                try expect(deliveries.n == made, name, "\(deliveries.n) deliveries in \(made) commits")
            })
        return (stats, "\(format(Double(selectorRuns.n) / Double(deliveries.n))) selector")
    }

    static func derivedVerge() throws -> (Stats, String) {
        let name = "store \(width) derived selectors (Verge-style)"
        let store = VergeStyleStore(initialValues)
        let selectorRuns = Counter()
        let deliveries = Counter()
        let outputs = Recorder()
        outputs.values = Array(repeating: 0, count: width)
        // Verge's derived(.map { $0.values[i] * 2 }): the selector (a closure, no key path)
        // runs on every commit, its output is compared with the previous one, and the derived
        // value's subscriber is called if it changed.
        for i in 0..<width {
            store.sink { changes in
                selectorRuns.n += 1
                let output = changes.current.values[i] &* 2
                if output != outputs.values[i] {
                    outputs.values[i] = output
                    deliveries.n += 1
                }
            }
        }
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.commit { $0.values[k % width] += 1 }
            },
            check: { made in
                try expect(
                    selectorRuns.n == made * width, name,
                    "\(selectorRuns.n) selector runs in \(made) commits, expected \(width) per commit")
                try expect(deliveries.n == made, name, "\(deliveries.n) deliveries in \(made) commits")
            })
        return (stats, "\(format(Double(selectorRuns.n) / Double(deliveries.n))) selectors")
    }

    // MARK: 2b. 10 000 derived selectors, a commit touches a field none of them reads

    // Selector i derives values[i] * 2 and has one subscriber; every commit increments
    // `count`, which no selector reads. Ideally as cheap as a commit with no subscriber.

    static let wide = 10_000

    static func unreadRipple(_ kind: any BenchStateKind.Type) throws -> (Stats, String) {
        // With the concrete state type, as an app's code calls the store: opened from the
        // existential, the generic function would run unspecialized, and so would the store's
        // inlinable entry points inside it.
        kind == BenchState.self ? try unreadRipple(of: BenchState.self) : try unreadRipple(of: BenchFieldsState.self)
    }

    static func unreadRipple<S: BenchStateKind>(of _: S.Type) throws -> (Stats, String) {
        let name = "store commit to an unread field, \(wide) selectors\(S.kind) (Ripple)"
        let store = Store<S, Never>(initialState: S(width: wide))
        let selectorRuns = Counter()
        let deliveries = Counter()
        var deriveds: [Derived<Int>] = []
        var subscriptions: [Subscription] = []
        for i in 0..<wide {
            let derived = store.derived(from: S.valuePath(i)) { value in
                selectorRuns.n += 1
                return value &* 2
            }
            subscriptions.append(derived.sinkValue(dropsFirst: true) { _ in deliveries.n += 1 })
            deriveds.append(derived)
        }
        selectorRuns.n = 0
        let stats = try sampleCommits(
            perSample(200),
            { _ in
                store.commit { $0.bumpCount() }
            },
            check: { made in
                try expect(selectorRuns.n == 0, name, "\(selectorRuns.n) selector runs in \(made) commits, expected 0")
                try expect(deliveries.n == 0, name, "\(deliveries.n) deliveries in \(made) commits, expected 0")
                try expect(store.currentState.countValue == made, name, "count == \(store.currentState.countValue)")
            })
        withExtendedLifetime((deriveds, subscriptions)) {}
        return (stats, "0 selectors")
    }

    // MARK: 2c. Closure selectors (`Store.select`)

    // The same two rows with `store.select { $0.values[i] &* 2 }`: as in the Verge-style
    // column, every selector runs on every commit, and only the changed one is delivered.

    static func selectRipple(_ count: Int, unread: Bool) throws -> (Stats, String) {
        let name =
            unread
            ? "store commit to an unread field, \(count) closure selectors (Ripple)"
            : "store \(count) closure selectors (Ripple)"
        let store = Store<BenchState, Never>(initialState: BenchState(width: count))
        let selectorRuns = Counter()
        let deliveries = Counter()
        var deriveds: [Derived<Int>] = []
        var subscriptions: [Subscription] = []
        for i in 0..<count {
            let derived = store.select { state in
                selectorRuns.n &+= 1
                return state.values[i] &* 2
            }
            subscriptions.append(derived.sinkValue(dropsFirst: true) { _ in deliveries.n += 1 })
            deriveds.append(derived)
        }
        selectorRuns.n = 0
        let stats = try sampleCommits(
            perSample(unread ? 200 : 2_000),
            { k in
                store.commit { state in unread ? state.bumpCount() : state.bumpValue(k % count) }
            },
            check: { made in
                try expect(
                    selectorRuns.n == made * count, name,
                    "\(selectorRuns.n) selector runs in \(made) commits, expected \(count) per commit")
                let expected = unread ? 0 : made
                try expect(
                    deliveries.n == expected, name,
                    "\(deliveries.n) deliveries in \(made) commits, expected \(expected)")
                if !unread {
                    let first = 2 * ((made - 1) / count + 1)
                    try expect(
                        deriveds[0].value == first, name, "selector 0 == \(deriveds[0].value), expected \(first)")
                }
            })
        withExtendedLifetime((deriveds, subscriptions)) {}
        return (stats, "\(count) selectors")
    }

    static func unreadLocked() throws -> (Stats, String) {
        let name = "store commit to an unread field, \(wide) selectors (locked struct)"
        let store = LockedStruct(BenchState(values: Array(repeating: 0, count: wide)))
        let selectorRuns = Counter()
        for _ in 0..<wide { store.valueSubscribers.append { _ in selectorRuns.n += 1 } }
        let stats = try sampleCommits(
            perSample(200),
            { _ in
                store.incrementCount()
            },
            check: { made in
                try expect(selectorRuns.n == 0, name, "\(selectorRuns.n) selector runs in \(made) commits")
            })
        return (stats, "0 selectors")
    }

    static func unreadVerge() throws -> (Stats, String) {
        let name = "store commit to an unread field, \(wide) selectors (Verge-style)"
        let store = VergeStyleStore(BenchState(values: Array(repeating: 0, count: wide)))
        let selectorRuns = Counter()
        let deliveries = Counter()
        let outputs = Recorder()
        outputs.values = Array(repeating: 0, count: wide)
        for i in 0..<wide {
            store.sink { changes in
                selectorRuns.n += 1
                let output = changes.current.values[i] &* 2
                if output != outputs.values[i] {
                    outputs.values[i] = output
                    deliveries.n += 1
                }
            }
        }
        let stats = try sampleCommits(
            perSample(200),
            { _ in
                store.commit { $0.count += 1 }
            },
            check: { made in
                try expect(
                    selectorRuns.n == made * wide, name, "\(selectorRuns.n) selector runs in \(made) commits")
                try expect(deliveries.n == 0, name, "\(deliveries.n) deliveries in \(made) commits")
            })
        return (stats, "\(wide) selectors")
    }

    // MARK: 3. 1000 fine-grained readers of distinct key paths, a commit touches one

    static func readersRipple(_ kind: any BenchStateKind.Type) throws -> (Stats, String) {
        // With the concrete state type, as an app's code calls the store: opened from the
        // existential, the generic function would run unspecialized, and so would the store's
        // inlinable entry points inside it.
        kind == BenchState.self ? try readersRipple(of: BenchState.self) : try readersRipple(of: BenchFieldsState.self)
    }

    static func readersRipple<S: BenchStateKind>(of _: S.Type) throws -> (Stats, String) {
        let name = "store \(width) fine-grained readers\(S.kind) (Ripple)"
        let store = Store<S, Never>(initialState: S(width: width))
        let readerRuns = Counter()
        var subscriptions: [Subscription] = []
        for i in 0..<width {
            let path = SendableKeyPath(keyPath: S.valuePath(i))
            subscriptions.append(
                observe {
                    let value = store.state[dynamicMember: path.keyPath]
                    readerRuns.n += 1
                    blackHole(value)
                })
        }
        try expect(readerRuns.n == width, name, "\(readerRuns.n) reader runs to build, expected \(width)")
        readerRuns.n = 0
        var commits = 0
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.commit { $0.bumpValue(k % width) }
            },
            check: { made in
                commits = made
                try expect(
                    readerRuns.n == made, name, "\(readerRuns.n) reader runs in \(made) commits, expected 1 per commit")
            })
        withExtendedLifetime(subscriptions) {}
        return (stats, "\(format(Double(readerRuns.n) / Double(commits))) reader")
    }

    static func readersLocked() throws -> (Stats, String) {
        let name = "store \(width) fine-grained readers (locked struct)"
        let store = LockedStruct(initialValues)
        let readerRuns = Counter()
        for _ in 0..<width {
            store.valueSubscribers.append { value in
                readerRuns.n += 1
                blackHole(value)
            }
        }
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.incrementValue(at: k % width)
            },
            check: { made in
                try expect(readerRuns.n == made, name, "\(readerRuns.n) reader runs in \(made) commits")
            })
        return (stats, "1 reader")
    }

    static func readersVerge() throws -> (Stats, String) {
        let name = "store \(width) fine-grained readers (Verge-style)"
        let store = VergeStyleStore(initialValues)
        let readerRuns = Counter()
        let work = Counter()
        for i in 0..<width {
            let path = \BenchState.values[i]
            store.sink { changes in
                readerRuns.n += 1
                changes.ifChanged(path) { value in
                    work.n += 1
                    blackHole(value)
                }
            }
        }
        let stats = try sampleCommits(
            perSample(2_000),
            { k in
                store.commit { $0.values[k % width] += 1 }
            },
            check: { made in
                try expect(
                    readerRuns.n == made * width, name,
                    "\(readerRuns.n) reader runs in \(made) commits, expected \(width) per commit")
                try expect(
                    work.n == made, name, "\(work.n) readers saw a change in \(made) commits, expected 1 per commit")
            })
        return (stats, "\(format(Double(readerRuns.n) / Double(work.n))) readers, 1 did work")
    }

    // MARK: 4. Concurrent commits from 2 threads

    // Two threads commit count += 1, N / 2 times each, released together; one subscriber
    // records every count it is delivered. Asserted: the final count is N more, and the
    // subscriber saw every count, in order.

    static func threadCommits() -> Int { config.quick ? 2_000 : 20_000 }

    /// Runs `commit` `total / threads` times on each of `threads` threads started together;
    /// returns the nanoseconds from their release to the end of all. With 8 threads on a
    /// machine of fewer cores, threads are preempted while they hold or wait for a lock.
    static func onThreads(_ threads: Int, _ total: Int, _ commit: @escaping @Sendable () -> Void) -> UInt64 {
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Thread {
                ready.signal()
                go.wait()
                for _ in 0..<(total / threads) { commit() }
                finished.signal()
            }.start()
        }
        for _ in 0..<threads { ready.wait() }
        let start = now()
        for _ in 0..<threads { go.signal() }
        for _ in 0..<threads { finished.wait() }
        return now() - start
    }

    /// Times `threadCommits()` calls of `commit` spread over `threads` threads, in ns per call.
    /// Checks that `count` grew by one per call and, with a `recorder`, that its subscriber got
    /// every count once, in order.
    static func sampleThreads(
        _ name: String, threads: Int, count: @escaping () -> Int, recorder: Recorder?, calls: String = "commits",
        _ commit: @escaping @Sendable () -> Void
    ) throws -> Stats {
        let total = threadCommits()
        var stats = try sample(
            maximum: config.samples, minimum: config.minimumSamples, budget: config.quick ? 0.3 : 2.0
        ) {
            let before = count()
            recorder?.values.removeAll(keepingCapacity: true)
            let elapsed = onThreads(threads, total, commit)
            let after = count()
            try expect(after == before + total, name, "count == \(after) after \(total) \(calls) from \(before)")
            if let recorder {
                try expect(
                    recorder.values.count == total, name,
                    "the subscriber saw \(recorder.values.count) commits of \(total)")
                for (i, value) in recorder.values.enumerated() where value != before + i + 1 {
                    try expect(
                        false, name, "delivery \(i) was count \(value), expected \(before + i + 1) (out of order)")
                }
            }
            return elapsed
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(total) }
        return stats
    }

    static func threadsRipple(_ threads: Int) throws -> (Stats, String) {
        let store = Store<BenchState, Never>(initialState: BenchState())
        let recorder = Recorder()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            recorder.values.append(changes.count)
        }
        let stats = try sampleThreads(
            "store commits from \(threads) threads (Ripple)", threads: threads, count: { store.currentState.count },
            recorder: recorder
        ) {
            store.commit { $0.count += 1 }
        }
        withExtendedLifetime(subscription) {}
        return (stats, "1 subscriber")
    }

    static func threadsLocked(_ threads: Int) throws -> (Stats, String) {
        let store = LockedStruct(BenchState())
        let recorder = Recorder()
        store.countSubscribers.append { count in recorder.values.append(count) }
        let stats = try sampleThreads(
            "store commits from \(threads) threads (locked struct)", threads: threads, count: { store.current.count },
            recorder: recorder
        ) {
            store.incrementCount()
        }
        return (stats, "1 subscriber")
    }

    /// 8 threads each add 1 to one `Stored<Int>` (`count.value += 1`, an atomic
    /// read-modify-write: a thread that finds another inside one waits for it, in the lock's
    /// `wait()`), and one `observe` reads it. Checked: no increment lost.
    static func incrementsRipple() throws -> (Stats, String) {
        let count = Stored(0)
        let reaction = observe { _ = count.value }
        let stats = try sampleThreads(
            "Stored += from 8 threads (Ripple)", threads: 8, count: { count.value }, recorder: nil, calls: "increments"
        ) {
            count.value += 1
        }
        withExtendedLifetime(reaction) {}
        return (stats, "1 observe")
    }

    /// The same increments on a struct behind a mutex, with no reaction.
    static func incrementsLocked() throws -> (Stats, String) {
        let store = LockedStruct(BenchState())
        let stats = try sampleThreads(
            "Stored += from 8 threads (locked struct)", threads: 8, count: { store.current.count }, recorder: nil,
            calls: "increments"
        ) {
            store.incrementCount()
        }
        return (stats, "no subscriber")
    }

    static func threadsVerge(_ threads: Int) throws -> (Stats, String) {
        let store = VergeStyleStore(BenchState())
        let recorder = Recorder()
        store.sink { changes in recorder.values.append(changes.current.count) }
        let stats = try sampleThreads(
            "store commits from \(threads) threads (Verge-style)", threads: threads, count: { store.current.count },
            recorder: recorder
        ) {
            store.commit { $0.count += 1 }
        }
        return (stats, "1 subscriber")
    }
}

// MARK: Printing

/// A store cell: median (min), and for a baseline, how many times its time Ripple's takes
/// (`Ripple 243x`: Ripple is 243 times slower; `Ripple 0.50x`: twice as fast).
func storeCell(_ storeCell: StoreBench.Cell, base: Double?) -> String {
    guard case .measured(let stats) = storeCell.outcome else { return cell(storeCell.outcome, base: nil) }
    let text = "\(format(stats.median)) (\(format(stats.min)))"
    guard let base, stats.median > 0 else { return text }
    return "\(text) Ripple \(ratio(base, stats.median))"
}

func printStore(_ rows: [StoreBench.Row]) {
    let columns = StoreBench.Column.allCases.filter { column in rows.contains { $0.cells[column] != nil } }
    print(
        "Store (issue 10): median (min) ns per commit, delivery included; \"Ripple Nx\" = Ripple's median ÷ this column's (above 1: Ripple is slower)."
    )
    print(
        "runs per commit: the closures that ran per commit (subscribers, selectors or readers), and how many of them found a change."
    )
    let headers = ["benchmark"] + columns.map(\.title)
    var lines: [[String]] = []
    var ranLines: [[String]] = []
    for row in rows {
        var base: Double?
        if case .measured(let stats)? = row.cells[.ripple]?.outcome { base = stats.median }
        lines.append(
            [row.name]
                + columns.map { column in
                    guard let cell = row.cells[column] else { return "n/a" }
                    return storeCell(cell, base: column.isBaseline ? base : nil)
                })
        ranLines.append(["  runs per commit"] + columns.map { row.cells[$0]?.ran ?? "" })
    }
    var widths = headers.map(\.count)
    for line in lines + ranLines { for (i, text) in line.enumerated() { widths[i] = max(widths[i], text.count) } }
    print(zip(headers, widths).map { pad($0, $1) }.joined(separator: " | "))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"))
    for (line, ran) in zip(lines, ranLines) {
        print(zip(line, widths).map { pad($0, $1) }.joined(separator: " | "))
        print(zip(ran, widths).map { pad($0, $1) }.joined(separator: " | "))
    }
}
