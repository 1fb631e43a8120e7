import Dispatch
import Foundation
import RippleStore

// The store section (issue 10): `--filter store`, or every run without a filter. Each row is
// timed next to two baselines measured in the same run:
// - "locked struct": a struct behind a lock, mutated by hand, subscribers called by hand with
//   (old, new) and left to compare what they care about (the least a hand-written store does);
// - "Verge-style": the same, where every subscriber runs on every commit and compares its
//   field (what Verge's `sinkState` + `ifChanged` costs).
enum StoreBench {
    struct State: Equatable, Sendable {
        var count = 0
        var name = ""
        var values = [Int](repeating: 0, count: 1_000)
    }

    struct Row {
        let name: String
        let ripple: Double
        let locked: Double
        let verge: Double
        let note: String
    }

    /// A struct behind a lock with hand-called subscribers.
    final class LockedStore: @unchecked Sendable {
        private let lock = NSLock()
        private var state = State()
        var subscribers: [(State, State) -> Void] = []

        func commit(_ mutation: (inout State) -> Void) {
            lock.lock()
            let old = state
            mutation(&state)
            let new = state
            lock.unlock()
            if old == new { return }
            for subscriber in subscribers { subscriber(old, new) }
        }

        var count: Int { lock.withLock { state.count } }
    }

    /// Median nanoseconds per operation over `samples` runs of `operations` calls of `body`.
    static func measure(operations: Int, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<(config.quick ? 3 : 11) {
            let t0 = now()
            for _ in 0..<operations { body() }
            samples.append(Double(now() - t0) / Double(operations))
        }
        return Stats(samples: samples).median
    }

    static func run(failures: inout [String]) -> [Row] {
        var rows: [Row] = []
        let commits = config.quick ? 2_000 : 20_000

        // 1. Commit throughput with 0, 10 and 1000 subscribers that each read a field the
        //    commit does not change (plus, for 10 and 1000, one that reads `count`).
        for subscriberCount in [0, 10, 1_000] {
            let store = Store<State, Never>(initialState: State())
            let delivered = Counter()
            var subscriptions: [Subscription] = []
            for index in 0..<subscriberCount {
                if index == 0 {
                    subscriptions.append(store.sinkState(dropsFirst: true) { changes in
                        changes.ifChanged(\.count) { _ in delivered.n += 1 }
                    })
                } else {
                    subscriptions.append(store.derived(\.name).sinkValue(dropsFirst: true) { _ in delivered.n += 1 })
                }
            }
            let ripple = measure(operations: commits / max(1, subscriberCount / 100)) { store.commit { $0.count += 1 } }
            if subscriberCount > 0, delivered.n != store.currentState.count {
                failures.append("store commit, \(subscriberCount) subscribers: the count subscriber ran \(delivered.n) times for \(store.currentState.count) commits")
            }
            let locked = LockedStore()
            let lockedRuns = Counter()
            if subscriberCount > 0 {
                locked.subscribers.append { old, new in if old.count != new.count { lockedRuns.n += 1 } }
                for _ in 1..<subscriberCount { locked.subscribers.append { old, new in if old.name != new.name { lockedRuns.n += 1 } } }
            }
            let lockedNs = measure(operations: commits / max(1, subscriberCount / 100)) { locked.commit { $0.count += 1 } }
            let verge = LockedStore()
            for _ in 0..<subscriberCount {
                verge.subscribers.append { old, new in blackHole(Changes(previous: old, current: new).hasChanges(\.name)) }
            }
            let vergeNs = measure(operations: commits / max(1, subscriberCount / 100)) { verge.commit { $0.count += 1 } }
            rows.append(Row(name: "commit, \(subscriberCount) subscribers", ripple: ripple, locked: lockedNs, verge: vergeNs, note: "ns/commit"))
            withExtendedLifetime(subscriptions) {}
        }

        // 2. 1000 derived selectors on distinct key paths; a commit touches one of them.
        do {
            let store = Store<State, Never>(initialState: State())
            let runs = Counter()
            let selectors = (0..<1_000).map { index in
                store.derived(from: \State.values[index]) { value -> Int in
                    runs.n += 1
                    return value * 2
                }
            }
            var subscriptions = selectors.map { $0.sinkValue(dropsFirst: true) { _ in } }
            defer { subscriptions.removeAll() }
            runs.n = 0
            let rounds = config.quick ? 200 : 2_000
            var next = 0
            let ripple = measure(operations: rounds) {
                next += 1
                store.commit { $0.values[7] = next }
            }
            let perCommit = Double(runs.n) / Double(store.version)
            if perCommit != 1 {
                failures.append("store 1000 derived: \(format(perCommit)) selector closures re-ran per commit touching one (expected 1)")
            }
            let verge = LockedStore()
            let vergeRuns = Counter()
            for index in 0..<1_000 {
                verge.subscribers.append { old, new in
                    // Verge's derived: each selector reads its input on every commit and compares.
                    if old.values[index] != new.values[index] { vergeRuns.n += 1; blackHole(new.values[index] * 2) }
                }
            }
            let vergeNs = measure(operations: rounds) { next += 1; verge.commit { $0.values[7] = next } }
            let locked = LockedStore()
            locked.subscribers.append { _, new in blackHole(new.values[7] * 2) }
            let lockedNs = measure(operations: rounds) { next += 1; locked.commit { $0.values[7] = next } }
            rows.append(Row(name: "1000 derived, commit touches 1", ripple: ripple, locked: lockedNs, verge: vergeNs, note: "ns/commit; \(format(perCommit)) closure re-run per commit"))
        }

        // 3. 1000 fine-grained readers of distinct key paths; a commit touches one.
        do {
            let store = Store<State, Never>(initialState: State())
            let runs = Counter()
            // `store.state.values[i]` would read through `values` (the outermost Equatable
            // member); a reader of one element reads its key path's node.
            let slices = (0..<1_000).map { index in store.derived(\State.values[index]) }
            let subscriptions = slices.map { slice in observe { blackHole(slice.value); runs.n += 1 } }
            // `blackHole` does not keep a value alive in release builds (its unused argument is
            // optimized away): the subscriptions are kept alive explicitly.
            defer { withExtendedLifetime(subscriptions) {} }
            runs.n = 0
            let rounds = config.quick ? 200 : 2_000
            var next = 0
            let ripple = measure(operations: rounds) { next += 1; store.commit { $0.values[3] = next } }
            let perCommit = Double(runs.n) / Double(store.version)
            if perCommit != 1 {
                failures.append("store 1000 readers: \(format(perCommit)) readers re-ran per commit touching one (expected 1)")
            }
            let verge = LockedStore()
            for index in 0..<1_000 {
                verge.subscribers.append { old, new in if old.values[index] != new.values[index] { blackHole(new.values[index]) } }
            }
            let vergeNs = measure(operations: rounds) { next += 1; verge.commit { $0.values[3] = next } }
            let locked = LockedStore()
            locked.subscribers.append { _, new in blackHole(new.values[3]) }
            let lockedNs = measure(operations: rounds) { next += 1; locked.commit { $0.values[3] = next } }
            rows.append(Row(name: "1000 readers, commit touches 1", ripple: ripple, locked: lockedNs, verge: vergeNs, note: "ns/commit; \(format(perCommit)) reader re-run per commit"))
        }

        // 4. Concurrent commits from 2 threads, one subscriber checking the order.
        do {
            let total = config.quick ? 20_000 : 200_000
            let store = Store<State, Never>(initialState: State())
            let outOfOrder = Counter()
            let lastSeen = Counter()
            let subscription = store.sinkState(dropsFirst: true) { changes in
                if changes.version != UInt64(lastSeen.n + 1) { outOfOrder.n += 1 }
                lastSeen.n = Int(changes.version)
            }
            let ripple = twoThreads(total) { store.commit { $0.count += 1 } }
            if store.currentState.count != total || lastSeen.n != total || outOfOrder.n != 0 {
                failures.append("store concurrent commits: count \(store.currentState.count), delivered up to \(lastSeen.n), \(outOfOrder.n) out of order, for \(total) commits")
            }
            let locked = LockedStore()
            locked.subscribers.append { _, new in blackHole(new.count) }
            let lockedNs = twoThreads(total) { locked.commit { $0.count += 1 } }
            rows.append(Row(name: "2 threads committing", ripple: ripple, locked: lockedNs, verge: .nan, note: "ns/commit, all delivered in order"))
            withExtendedLifetime(subscription) {}
        }
        return rows
    }

    /// Nanoseconds per operation of `total` calls of `body` split over two threads.
    static func twoThreads(_ total: Int, _ body: @escaping @Sendable () -> Void) -> Double {
        let group = DispatchGroup()
        let t0 = now()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<(total / 2) { body() }
                group.leave()
            }
        }
        group.wait()
        return Double(now() - t0) / Double(total)
    }

    static func print(_ rows: [Row]) {
        Swift.print("Store (RippleStore; median ns per commit; ratio = baseline / Ripple, below 1 means the baseline is faster):")
        for row in rows {
            let verge = row.verge.isNaN ? "" : ", Verge-style \(format(row.verge)) (\(format(row.verge / row.ripple))×)"
            Swift.print("  \(row.name): Ripple \(format(row.ripple)), locked struct \(format(row.locked)) (\(format(row.locked / row.ripple))×)\(verge) — \(row.note)")
        }
    }
}
