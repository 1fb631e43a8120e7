import Foundation
import RippleStore

// The reducer benchmarks of issue 11: `send` on the thread-safe `ReducerStore` and on the
// main-actor `ViewStore`, actions sent from 2 threads, and effect round trips, each next to
// baselines measured in the same run:
//
// - `LockedReducer`: a plain struct mutated in place under a pthread mutex (lock, switch on the
//   action, mutate, unlock); its `.run` effect is a bare `Task`, its `.send` effect a loop.
// - the existing `Store`'s `commit { $0.count += 1 }`, on the same state container a
//   `ReducerStore` reduces into (one commit per action, no reducer, no action queue).
//
// The ViewStore columns run on the main thread (main.swift keeps its run loop serving the
// main queue while the suite runs on a thread of its own). Times are nanoseconds per action
// (per round trip in the effect rows). Every row asserts that each action was applied exactly
// once (in quick mode too).

// MARK: The reducer and its baseline

/// The state every reducer benchmark changes.
struct ReducerBenchState: Equatable, Sendable {
    var count = 0
    /// The last sequence number applied from each of two senders, and how many were applied
    /// out of order (not the previous one plus 1): a lost, duplicated or reordered action.
    var lastA = 0
    var lastB = 0
    var misordered = 0

    /// Applies the `sequence`-th action of `sender` (0 or 1).
    @inline(__always)
    mutating func add(sender: Int, sequence: Int) {
        let last = sender == 0 ? lastA : lastB
        if sequence != last + 1 { misordered += 1 }
        if sender == 0 { lastA = sequence } else { lastB = sequence }
        count += 1
    }
}

enum ReducerBenchAction: Sendable {
    /// count += 1.
    case increment
    /// The `sequence`-th action (from 1) of `sender` (0 or 1).
    case add(sender: Int, sequence: Int)
    /// Returns `.run { send in await send(.done) }`.
    case start
    /// count += 1.
    case done
    /// Returns `.send(.pong)`.
    case ping
    /// count += 1.
    case pong
}

/// A semaphore signalled when `.done` has been reduced (by a subscriber of the store: the
/// reducer runs inside the commit, before the state is published).
final class ReducerBenchSignal: @unchecked Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    @inline(__always) func signal() { semaphore.signal() }
    @inline(__always) func wait() { semaphore.wait() }
}

struct BenchReducer: Reducer {
    func reduce(into state: inout ReducerBenchState, action: ReducerBenchAction) -> Effect<ReducerBenchAction> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .add(let sender, let sequence):
            state.add(sender: sender, sequence: sequence)
            return .none
        case .start:
            return .run { send in await send(.done) }
        case .done:
            state.count += 1
            return .none
        case .ping:
            return .send(.pong)
        case .pong:
            state.count += 1
            return .none
        }
    }
}

/// The floor: the same actions on a struct behind a mutex, reduced in place. `.start`'s
/// effect is a bare `Task` that sends `.done`; `.ping`'s `.pong` is reduced right after it.
final class LockedReducer: @unchecked Sendable {
    private let mutex = BenchMutex()
    private var state = ReducerBenchState()
    let done: ReducerBenchSignal?

    init(done: ReducerBenchSignal? = nil) { self.done = done }

    var current: ReducerBenchState {
        mutex.lock()
        defer { mutex.unlock() }
        return state
    }

    func send(_ action: ReducerBenchAction) {
        var next: ReducerBenchAction? = action
        while let action = next {
            next = nil
            var startsTask = false
            mutex.lock()
            switch action {
            case .increment: state.count += 1
            case .add(let sender, let sequence): state.add(sender: sender, sequence: sequence)
            case .start: startsTask = true
            case .done: state.count += 1
            case .ping: next = .pong
            case .pong: state.count += 1
            }
            mutex.unlock()
            if case .done = action { done?.signal() }
            if startsTask { Task { self.send(.done) } }
        }
    }
}

// MARK: The rows

enum ReducerBench {
    enum Column: CaseIterable {
        case reducerStore, viewStore, mainActorStore, locked, commit

        var title: String {
            switch self {
            case .reducerStore: "ReducerStore"
            case .viewStore: "ViewStore (main actor)"
            case .mainActorStore: "MainActorReducerStore"
            case .locked: "locked reducer"
            case .commit: "Store commit"
            }
        }

        /// The `--columns` words that select it.
        var keys: Set<String> {
            switch self {
            case .reducerStore: ["ripple", "reducerstore"]
            case .viewStore: ["ripple", "viewstore"]
            case .mainActorStore: ["ripple", "mainactorreducerstore", "mainactor"]
            case .locked: ["locked", "floor"]
            case .commit: ["commit", "store"]
            }
        }

        /// A column of the library under test (the others are baselines).
        var isRipple: Bool { self == .reducerStore || self == .viewStore || self == .mainActorStore }
    }

    typealias Cell = StoreBench.Cell

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

    /// Actions sent from 2 threads (half each), in quick mode too.
    static let threadActions = 10_000

    // Row names start with "reducer" and never contain "store", so that `--filter store` and
    // `--filter reducer` select disjoint sections.
    static var benchmarks: [Benchmark] {
        [
            Benchmark(
                name: "reducer send, trivial reducer",
                columns: [
                    .reducerStore: sendReducerStore, .viewStore: sendViewStore,
                    .mainActorStore: sendMainActorStore, .locked: sendLocked, .commit: sendCommit,
                ]),
            Benchmark(
                name: "reducer \(threadActions) actions from 2 threads",
                columns: [
                    .reducerStore: threadsReducerStore, .locked: threadsLocked, .commit: threadsCommit,
                ]),
            Benchmark(
                name: "reducer effect round trip, .run",
                columns: [
                    .reducerStore: runTripReducerStore, .viewStore: runTripViewStore, .locked: runTripLocked,
                ]),
            Benchmark(
                name: "reducer effect round trip, .send",
                columns: [
                    .reducerStore: sendTripReducerStore, .viewStore: sendTripViewStore,
                    .mainActorStore: sendTripMainActorStore, .locked: sendTripLocked,
                ]),
        ]
    }

    /// Whether `--filter` selects any reducer row.
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
                    "  \(benchmark.name) / \(column.title): \(reducerCell(row.cells[column]!, bases: []))  [\(format(Double(now() - t0) / 1e9)) s]"
                )
            }
            rows.append(row)
        }
        return rows
    }

    /// Runs `body` on the main thread, as main-actor code, and waits for it. The suite runs on
    /// a thread of its own while the main thread's run loop serves the main queue (see
    /// main.swift).
    static func onMainActor<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
        try DispatchQueue.main.sync {
            try MainActor.assumeIsolated { try body() }
        }
    }

    // MARK: 1. send throughput, trivial reducer (count += 1)

    static func sendCount() -> Int { StoreBench.perSample(50_000) }

    static func sendReducerStore() throws -> (Stats, String) {
        let name = "reducer send, trivial reducer (ReducerStore)"
        let store = ReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
        let stats = try StoreBench.sampleCommits(
            sendCount(),
            { _ in
                store.send(.increment)
            },
            check: { made in
                let count = store.currentState.count
                try expect(count == made, name, "count == \(count) after \(made) sends")
            })
        return (stats, "1 commit per action")
    }

    static func sendViewStore() throws -> (Stats, String) {
        let name = "reducer send, trivial reducer (ViewStore)"
        let actions = sendCount()
        return try onMainActor {
            let store = ViewStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let stats = try StoreBench.sampleCommits(
                actions,
                { _ in
                    store.send(.increment)
                },
                check: { made in
                    let count = store.currentState.count
                    try expect(count == made, name, "count == \(count) after \(made) sends")
                })
            return (stats, "1 commit per action")
        }
    }

    static func sendMainActorStore() throws -> (Stats, String) {
        let name = "reducer send, trivial reducer (MainActorReducerStore)"
        let actions = sendCount()
        return try onMainActor {
            let store = MainActorReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let stats = try StoreBench.sampleCommits(
                actions,
                { _ in
                    store.send(.increment)
                },
                check: { made in
                    let count = store.currentState.count
                    try expect(count == made, name, "count == \(count) after \(made) sends")
                })
            return (stats, "1 commit per action")
        }
    }

    static func sendLocked() throws -> (Stats, String) {
        let name = "reducer send, trivial reducer (locked reducer)"
        let store = LockedReducer()
        let stats = try StoreBench.sampleCommits(
            sendCount(),
            { _ in
                store.send(.increment)
            },
            check: { made in
                let count = store.current.count
                try expect(count == made, name, "count == \(count) after \(made) sends")
            })
        return (stats, "-")
    }

    static func sendCommit() throws -> (Stats, String) {
        let name = "reducer send, trivial reducer (Store commit)"
        let store = Store<ReducerBenchState, Never>(initialState: ReducerBenchState())
        let stats = try StoreBench.sampleCommits(
            sendCount(),
            { _ in
                store.commit { $0.count += 1 }
            },
            check: { made in
                let count = store.currentState.count
                try expect(count == made, name, "count == \(count) after \(made) commits")
            })
        return (stats, "1 commit")
    }

    // MARK: 2. 10 000 actions from 2 threads

    // Two threads released together send `.add(sender:sequence:)`, 5 000 each, numbered from 1,
    // to a fresh store per sample; one subscriber checks that every delivery moved the count
    // by exactly 1. Asserted: count == 10 000, each sender's last sequence number is 5 000 and
    // none was applied out of order (so each was applied exactly once), and 10 000 deliveries.

    /// Counts deliveries and those that did not move the count by exactly 1 (one thread
    /// delivers at a time).
    final class DeliveryCheck: @unchecked Sendable {
        var deliveries = 0
        var lastCount = 0
        var wrong = 0

        func record(_ count: Int) {
            deliveries += 1
            if count != lastCount + 1 { wrong += 1 }
            lastCount = count
        }
    }

    /// Sends `.add` from two threads started together (`send(sender, sequence)`), returns
    /// the nanoseconds from their release to the end of both.
    static func onTwoSenders(_ total: Int, _ send: @escaping @Sendable (Int, Int) -> Void) -> UInt64 {
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for sender in 0..<2 {
            Thread {
                ready.signal()
                go.wait()
                for sequence in 1...(total / 2) { send(sender, sequence) }
                finished.signal()
            }.start()
        }
        ready.wait()
        ready.wait()
        let start = now()
        go.signal()
        go.signal()
        finished.wait()
        finished.wait()
        return now() - start
    }

    /// Samples of `threadActions` sent from 2 threads to a fresh store made by `make`, which
    /// returns the send, a reader of the final state, and the delivery check (if any).
    static func sampleTwoSenders(
        _ name: String,
        _ make: () -> (
            send: @Sendable (Int, Int) -> Void, state: () -> ReducerBenchState, check: DeliveryCheck?, keepAlive: Any
        )
    ) throws -> Stats {
        let total = threadActions
        let half = total / 2
        var stats = try sample(
            maximum: config.samples, minimum: config.minimumSamples, budget: config.quick ? 0.3 : 2.0
        ) {
            let made = make()
            let elapsed = onTwoSenders(total, made.send)
            let state = made.state()
            try expect(state.count == total, name, "count == \(state.count) after \(total) actions")
            try expect(
                state.lastA == half && state.lastB == half, name,
                "last sequence numbers \(state.lastA), \(state.lastB), expected \(half) each")
            try expect(state.misordered == 0, name, "\(state.misordered) actions applied out of order, lost or twice")
            if let check = made.check {
                try expect(check.deliveries == total, name, "\(check.deliveries) deliveries of \(total) actions")
                try expect(check.wrong == 0, name, "\(check.wrong) deliveries did not move the count by 1")
            }
            withExtendedLifetime(made.keepAlive) {}
            return elapsed
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(total) }
        return stats
    }

    static func threadsReducerStore() throws -> (Stats, String) {
        let stats = try sampleTwoSenders("reducer \(threadActions) actions from 2 threads (ReducerStore)") {
            let store = ReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let check = DeliveryCheck()
            let subscription = store.sinkState(dropsFirst: true) { changes in check.record(changes.count) }
            return ({ store.send(.add(sender: $0, sequence: $1)) }, { store.currentState }, check, subscription)
        }
        return (stats, "1 subscriber, \(totalTime(stats)) in all")
    }

    /// The median time of a whole sample of `threadActions`.
    static func totalTime(_ stats: Stats) -> String {
        "\(format(stats.median * Double(threadActions) / 1e6)) ms"
    }

    static func threadsLocked() throws -> (Stats, String) {
        let stats = try sampleTwoSenders("reducer \(threadActions) actions from 2 threads (locked reducer)") {
            let store = LockedReducer()
            return ({ store.send(.add(sender: $0, sequence: $1)) }, { store.current }, nil, store)
        }
        return (stats, "\(totalTime(stats)) in all")
    }

    static func threadsCommit() throws -> (Stats, String) {
        let stats = try sampleTwoSenders("reducer \(threadActions) actions from 2 threads (Store commit)") {
            let store = Store<ReducerBenchState, Never>(initialState: ReducerBenchState())
            let check = DeliveryCheck()
            let subscription = store.sinkState(dropsFirst: true) { changes in check.record(changes.count) }
            return (
                { sender, sequence in store.commit { $0.add(sender: sender, sequence: sequence) } },
                { store.currentState }, check, subscription
            )
        }
        return (stats, "1 subscriber, \(totalTime(stats)) in all")
    }

    // MARK: 3. Effect round trips

    // `.run`: `send(.start)`, whose effect is `.run { send in await send(.done) }`, then wait
    // until `.done` has been reduced: a `sinkState` subscriber (the only one; only `.done`
    // changes the state) signals a semaphore when its commit is delivered. `.send`:
    // `send(.ping)`, whose effect is `.send(.pong)`; `send` returns once `.pong` is reduced.

    static func runTrips() -> Int { config.quick ? 100 : 1_000 }
    static func sendTrips() -> Int { StoreBench.perSample(20_000) }

    /// Samples of `trips` calls of `trip`, in nanoseconds per trip; `count` must equal the
    /// trips made after each sample.
    static func sampleTrips(_ name: String, _ trips: Int, _ trip: () -> Void, count: () -> Int) throws -> Stats {
        var made = 0
        for _ in 0..<max(trips / 10, 1) { trip(); made += 1 }
        var stats = try sample(
            maximum: config.samples, minimum: config.minimumSamples, budget: config.quick ? 0.3 : 2.0
        ) {
            let start = now()
            for _ in 0..<trips { trip() }
            let elapsed = now() - start
            made += trips
            let reduced = count()
            try expect(reduced == made, name, "\(reduced) follow-up actions reduced after \(made) round trips")
            return elapsed
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(trips) }
        return stats
    }

    static func runTripReducerStore() throws -> (Stats, String) {
        let done = ReducerBenchSignal()
        let store = ReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
        let subscription = store.sinkState(dropsFirst: true) { _ in done.signal() }
        let stats = try sampleTrips(
            "reducer effect round trip, .run (ReducerStore)", runTrips(),
            {
                store.send(.start)
                done.wait()
            }, count: { store.currentState.count })
        withExtendedLifetime(subscription) {}
        return (stats, "2 actions, 1 task, 1 subscriber")
    }

    /// The trips left in a ViewStore chain (touched on the main actor only).
    final class Chain: @unchecked Sendable {
        var remaining = 0
    }

    static func runTripViewStore() throws -> (Stats, String) {
        let name = "reducer effect round trip, .run (ViewStore)"
        let done = ReducerBenchSignal()
        let chain = Chain()
        // Everything on the main actor, with no hop from the benchmark's thread per trip: the
        // subscriber that sees `.done` sends the next `.start` (queued, reduced right after
        // the delivery), and signals the benchmark after the last trip of a sample.
        let (store, subscription) = onMainActor {
            let store = ViewStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let subscription = store.store.sinkState(dropsFirst: true) { [weak store] _ in
                chain.remaining -= 1
                if chain.remaining > 0 {
                    MainActor.assumeIsolated { store?.send(.start) }
                } else {
                    done.signal()
                }
            }
            return (store, subscription)
        }
        let trips = runTrips()
        var made = 0
        func run(_ count: Int) {
            onMainActor {
                chain.remaining = count
                store.send(.start)
            }
            done.wait()
            made += count
        }
        run(max(trips / 10, 1))
        var stats = try sample(
            maximum: config.samples, minimum: config.minimumSamples, budget: config.quick ? 0.3 : 2.0
        ) {
            let elapsed = timed { run(trips) }
            let reduced = onMainActor { store.currentState.count }
            try expect(reduced == made, name, "\(reduced) follow-up actions reduced after \(made) round trips")
            return elapsed
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(trips) }
        withExtendedLifetime(subscription) {}
        return (stats, "2 actions, 1 task, 1 subscriber, 1 main-actor job")
    }

    static func runTripLocked() throws -> (Stats, String) {
        let done = ReducerBenchSignal()
        let store = LockedReducer(done: done)
        let stats = try sampleTrips(
            "reducer effect round trip, .run (locked reducer)", runTrips(),
            {
                store.send(.start)
                done.wait()
            }, count: { store.current.count })
        return (stats, "2 actions, 1 Task")
    }

    static func sendTripReducerStore() throws -> (Stats, String) {
        let store = ReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
        let stats = try sampleTrips(
            "reducer effect round trip, .send (ReducerStore)", sendTrips(),
            {
                store.send(.ping)
            }, count: { store.currentState.count })
        return (stats, "2 actions, 2 commits")
    }

    static func sendTripViewStore() throws -> (Stats, String) {
        let trips = sendTrips()
        return try onMainActor {
            let store = ViewStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let stats = try sampleTrips(
                "reducer effect round trip, .send (ViewStore)", trips,
                {
                    store.send(.ping)
                }, count: { store.currentState.count })
            return (stats, "2 actions, 2 commits")
        }
    }

    static func sendTripMainActorStore() throws -> (Stats, String) {
        let trips = sendTrips()
        return try onMainActor {
            let store = MainActorReducerStore(reducer: BenchReducer(), initialState: ReducerBenchState())
            let stats = try sampleTrips(
                "reducer effect round trip, .send (MainActorReducerStore)", trips,
                {
                    store.send(.ping)
                }, count: { store.currentState.count })
            return (stats, "2 actions, 2 commits")
        }
    }

    static func sendTripLocked() throws -> (Stats, String) {
        let store = LockedReducer()
        let stats = try sampleTrips(
            "reducer effect round trip, .send (locked reducer)", sendTrips(),
            {
                store.send(.ping)
            }, count: { store.current.count })
        return (stats, "2 actions")
    }
}

// MARK: Printing

/// A reducer cell: median (min), and for a baseline, how many times its time each Ripple
/// column takes (`RS 250x`: the ReducerStore is 250 times slower).
func reducerCell(_ reducerCell: ReducerBench.Cell, bases: [(String, Double)]) -> String {
    guard case .measured(let stats) = reducerCell.outcome else { return cell(reducerCell.outcome, base: nil) }
    let text = "\(format(stats.median)) (\(format(stats.min)))"
    guard stats.median > 0, !bases.isEmpty else { return text }
    return text + " " + bases.map { "\($0.0) \(ratio($0.1, stats.median))" }.joined(separator: ", ")
}

func printReducer(_ rows: [ReducerBench.Row]) {
    let columns = ReducerBench.Column.allCases.filter { column in rows.contains { $0.cells[column] != nil } }
    print(
        "Reducer (issue 11): median (min) ns per action (per round trip in the effect rows); in a baseline column, \"RS Nx\" / \"VS Nx\" / \"MA Nx\" = the ReducerStore's / ViewStore's / MainActorReducerStore's median ÷ this column's (above 1: Ripple is slower)."
    )
    print("per action: what one action (one round trip) does.")
    let headers = ["benchmark"] + columns.map(\.title)
    var lines: [[String]] = []
    var ranLines: [[String]] = []
    for row in rows {
        var bases: [(String, Double)] = []
        for (column, short) in [(ReducerBench.Column.reducerStore, "RS"), (.viewStore, "VS"), (.mainActorStore, "MA")] {
            if case .measured(let stats)? = row.cells[column]?.outcome { bases.append((short, stats.median)) }
        }
        lines.append(
            [row.name]
                + columns.map { column in
                    guard let cell = row.cells[column] else { return "n/a" }
                    return reducerCell(cell, bases: column.isRipple ? [] : bases)
                })
        ranLines.append(["  per action"] + columns.map { row.cells[$0]?.ran ?? "" })
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
