import CMallocInfo
import Observation
import Ripple
import RippleStore

// Bytes per node (glibc's mallinfo2().uordblks before and after creating nodes that are kept
// alive) and the cost of single writes and reads.

enum Memory {
    static let nodeCount = 100_000

    /// Bytes malloc holds more after `body` than before, per node; `body` keeps what it creates.
    static func bytes(_ body: () -> Void) -> Double {
        let before = bench_malloc_in_use()
        body()
        let after = bench_malloc_in_use()
        guard before >= 0 else { return .nan }
        return Double(after - before) / Double(nodeCount)
    }

    struct Report {
        var stored = 0.0
        var computedUnread = 0.0
        var computedRead = 0.0
        var computedReadObserved = 0.0
        var computedReadTracked = 0.0
        var reaction = 0.0
        /// A store's derived value of one key path (`store.derived(from:)`) with one `sinkValue`.
        var storeDerivedWithSink = 0.0
        /// A reaction reading one key path of a store's state (`store.state.x` in `observe`).
        var storeKeyPathReader = 0.0
        /// A store's closure selector (`store.select { }`) with one `sinkValue`.
        var storeSelectWithSink = 0.0
        /// Milliseconds to release the 100 000 top-level-read computeds of one source.
        var releaseComputedsMs = 0.0
        /// Milliseconds to release (cancel) the 100 000 reactions on one source.
        var releaseReactionsMs = 0.0
    }

    static func measure() -> Report {
        var report = Report()
        var storeds: [Stored<Int>] = []
        storeds.reserveCapacity(nodeCount)
        report.stored = bytes {
            for i in 0..<nodeCount { storeds.append(Stored(i)) }
        }

        let source = Stored(1)
        var computeds: [Computed<Int>] = []
        computeds.reserveCapacity(nodeCount)
        report.computedUnread = bytes {
            for _ in 0..<nodeCount { computeds.append(Computed { source.value + 1 }) }
        }
        // A read outside any derivation or reaction (as the benchmarks' asserts do): caches the
        // value and records the source edge; outside any Observation scope, nothing is armed.
        report.computedRead =
            report.computedUnread
            + bytes {
                for computed in computeds { blackHole(computed.value) }
            }

        // The same, read once from inside a derivation (no Observation interop).
        var tracked: [Computed<Int>] = []
        tracked.reserveCapacity(nodeCount)
        let unreadAgain = bytes {
            for _ in 0..<nodeCount { tracked.append(Computed { source.value + 1 }) }
        }
        let trackedList = tracked
        let reader = Computed { () -> Int in
            var total = 0
            for c in trackedList { total &+= c.value }
            return total
        }
        let readerEdges = bytes { blackHole(reader.value) }
        // The reader's own edge list (16 bytes per edge, amortized growth) is not the nodes' cost.
        report.computedReadTracked = unreadAgain + readerEdges - 16

        var reactions: [Subscription] = []
        reactions.reserveCapacity(nodeCount)
        report.reaction = bytes {
            for _ in 0..<nodeCount { reactions.append(observe { _ = source.value }) }
        }
        // Read once inside withObservationTracking (a SwiftUI body): arms the node's Observation
        // watcher and its subject. One write of their source then fires the registrations, as
        // a view's update would, so that what stays is what an armed node keeps.
        let observedSource = Stored(1)
        var observedComputeds: [Computed<Int>] = []
        observedComputeds.reserveCapacity(nodeCount)
        report.computedReadObserved = bytes {
            for _ in 0..<nodeCount { observedComputeds.append(Computed { observedSource.value + 1 }) }
            for computed in observedComputeds {
                withObservationTracking {
                    blackHole(computed.value)
                } onChange: {
                }
            }
            observedSource.value = 2
        }

        // The store's readers (issue 37): each reads its own element of an array in the state.
        let store = Store<BenchState, Never>(
            initialState: BenchState(values: Array(repeating: 0, count: nodeCount)))
        var storeDerived: [Derived<Int>] = []
        var storeSubscriptions: [Subscription] = []
        storeDerived.reserveCapacity(nodeCount)
        storeSubscriptions.reserveCapacity(2 * nodeCount)
        report.storeDerivedWithSink = bytes {
            for i in 0..<nodeCount {
                let derived = store.derived(from: \BenchState.values[i]) { $0 &* 2 }
                storeDerived.append(derived)
                storeSubscriptions.append(derived.sinkValue(dropsFirst: true) { _ in })
            }
        }
        report.storeKeyPathReader = bytes {
            for i in 0..<nodeCount {
                let path = SendableKeyPath(keyPath: \BenchState.values[i])
                storeSubscriptions.append(observe { blackHole(store.state[dynamicMember: path.keyPath]) })
            }
        }

        let selectStore = Store<BenchState, Never>(
            initialState: BenchState(values: Array(repeating: 0, count: nodeCount)))
        report.storeSelectWithSink = bytes {
            for i in 0..<nodeCount {
                let derived = selectStore.select { $0.values[i] &* 2 }
                storeDerived.append(derived)
                storeSubscriptions.append(derived.sinkValue(dropsFirst: true) { _ in })
            }
        }

        // Releasing many readers of one source unlinks each from the source's observer list.
        report.releaseComputedsMs = Double(timed { computeds = [] }) / 1e6
        report.releaseReactionsMs = Double(timed { reactions = [] }) / 1e6
        withExtendedLifetime((storeds, computeds, observedComputeds, tracked, reader, reactions)) {}
        withExtendedLifetime((store, selectStore, storeDerived, storeSubscriptions)) {}
        return report
    }

    /// Median nanoseconds per call of `body`, over batches of `perBatch` calls.
    static func nanoseconds(perBatch: Int = 10_000, _ body: (Int) -> Void) -> Double {
        var samples: [Double] = []
        var value = 1
        for _ in 0..<5 { body(value); value += 1 }
        for _ in 0..<(config.quick ? 20 : 200) {
            let start = now()
            for _ in 0..<perBatch { body(value); value &+= 1 }
            samples.append(Double(now() - start) / Double(perBatch))
        }
        return Stats(samples: samples).median
    }

    struct Costs {
        var writeNoObserver = 0.0
        var batchWriteNoObserver = 0.0
        var writeOneReaction = 0.0
        var readWriteArmed = 0.0
        var writeStoredReadOnce = 0.0
        var writeUnderComputedReadOnce = 0.0
        var writeStoredObserved = 0.0
        var writeUnderComputedObserved = 0.0
        var readStoredTopLevel = 0.0
        var readComputedTopLevel = 0.0
        var readInsideReaction = 0.0
    }

    static func costs() -> Costs {
        var costs = Costs()
        let plain = Stored(0)
        costs.writeNoObserver = nanoseconds { plain.value = $0 }
        let batched = Stored(0)
        costs.batchWriteNoObserver = nanoseconds { v in batch { batched.value = v } }
        let observed = Stored(0)
        let runs = Counter()
        let reaction = observe {
            _ = observed.value; runs.n += 1
        }
        costs.writeOneReaction = nanoseconds { observed.value = $0 }
        // A top-level read outside any Observation scope, then a write: nothing is armed.
        let unarmed = Stored(0)
        costs.readWriteArmed = nanoseconds { v in
            blackHole(unarmed.value); unarmed.value = v
        }
        // Read once at top level, then only written: outside any scope, the write tells nobody.
        let readOnce = Stored(0)
        blackHole(readOnce.value)
        costs.writeStoredReadOnce = nanoseconds { readOnce.value = $0 }
        // The same under a Computed read once at top level: it stays lazy.
        let computedSource = Stored(0)
        let computedReadOnce = Computed { computedSource.value &+ 1 }
        blackHole(computedReadOnce.value)
        costs.writeUnderComputedReadOnce = nanoseconds { computedSource.value = $0 }
        // Read once inside withObservationTracking (a SwiftUI body): armed, so every later write
        // tells Observation, as an @Observable property's does (a registration may be pending).
        let observedOnce = Stored(0)
        withObservationTracking {
            blackHole(observedOnce.value)
        } onChange: {
        }
        costs.writeStoredObserved = nanoseconds { observedOnce.value = $0 }
        // The same under a Computed: every write re-evaluates it (the cut-off decides whether
        // Observation is told).
        let observedSource = Stored(0)
        let computedObserved = Computed { observedSource.value &+ 1 }
        withObservationTracking {
            blackHole(computedObserved.value)
        } onChange: {
        }
        costs.writeUnderComputedObserved = nanoseconds { observedSource.value = $0 }
        let read = Stored(7)
        costs.readStoredTopLevel = nanoseconds { _ in blackHole(read.value) }
        let computed = Computed { read.value + 1 }
        blackHole(computed.value)
        costs.readComputedTopLevel = nanoseconds { _ in blackHole(computed.value) }
        // 100 reads of a Stored inside one reaction run, per read.
        let trigger = Stored(0)
        let inner = Stored(1)
        let reader = observe {
            _ = trigger.value
            var total = 0
            for _ in 0..<100 { total &+= inner.value }
            blackHole(total)
        }
        costs.readInsideReaction = nanoseconds(perBatch: 100) { trigger.value = $0 } / 100
        withExtendedLifetime((reaction, reader)) {}
        return costs
    }
}
