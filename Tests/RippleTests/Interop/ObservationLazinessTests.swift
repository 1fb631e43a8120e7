import Observation
import Testing
@testable import Ripple

/// A value read at the top level stays lazy unless an Observation scope (a SwiftUI body,
/// `withObservationTracking`) recorded the read: only then is it armed to report its changes.
@Suite("Observation interop: only recorded reads arm")
struct ObservationLazinessTests {
    @Test("the probe sees recorded accesses on this platform, so the laziness below is in effect")
    func probeWorks() {
        #expect(_observationProbeWorks)
    }

    @Test("a computed value read at the top level outside any scope stays lazy: later writes do not evaluate it")
    func computedStaysLazy() {
        let source = Stored(1)
        let evaluations = Counter()
        let doubled = Computed {
            evaluations.increment(); return source.value * 2
        }
        #expect(doubled.value == 2)
        for value in 2...4 { source.value = value }
        #expect(evaluations.value == 1, "not evaluated by the writes")
        #expect(doubled.value == 8)
        #expect(evaluations.value == 2)
    }

    @Test("a stored value read at the top level outside any scope is not armed: its writes tell Observation nothing")
    func storedStaysUnarmed() {
        let count = Stored(0)
        _ = count.value
        count.value = 1
        let armed = _graph.withLock { held in count._extras.map { held[observationRef: $0.object] != nil } ?? false }
        #expect(!armed)
    }

    @Test("a computed value read inside withObservationTracking is armed, and reports one change per real change")
    func recordedReadArms() {
        let source = Stored(1)
        let evaluations = Counter()
        let parity = Computed {
            evaluations.increment(); return source.value % 2
        }
        let heard = Counter()
        withObservationTracking {
            _ = parity.value
        } onChange: {
            heard.increment()
        }
        source.value = 3  // re-evaluated (armed), equal: nothing to report
        #expect(heard.value == 0)
        #expect(evaluations.value == 2)
        source.value = 4
        #expect(heard.value == 1)
    }

    @Test("a write between a recorded read and the arming it causes does not deafen the registration")
    func writeBeforeArming() {
        let source = Stored(1)
        let doubled = Computed { source.value * 2 }
        _ = doubled.value  // evaluated, not armed
        let heard = Counter()
        let context = _ThreadContext.current
        context.afterTrackedReadProbe = { source.value = 5 }
        withObservationTracking {
            _ = doubled.value
        } onChange: {
            heard.increment()
        }
        context.afterTrackedReadProbe = nil
        source.value = 7
        #expect(heard.value == 1)
        #expect(doubled.value == 14)
    }

    @Test(
        "arming a value read out of an array, whose derivation empties the array meanwhile, keeps its handle alive through the read"
    )
    func armingWhileTheArrayGoes() {
        // A guard for the sanitizer runs: the read's fast end releases nothing, and the arming
        // that follows it runs user code (here, a derivation dropping the array's last
        // reference to the handle being read).
        final class Rows: @unchecked Sendable { var rows: [Computed<Int>] = [] }
        let source = Stored(1)
        let holder = Rows()
        holder.rows = [
            Computed {
                let value = source.value; if value == 5 { holder.rows = [] }; return value * 2
            }
        ]
        #expect(holder.rows[0].value == 2)  // fresh, not armed
        let heard = Counter()
        let context = _ThreadContext.current
        context.afterTrackedReadProbe = { source.value = 5 }
        withObservationTracking {
            #expect(holder.rows[0].value == 2)
        } onChange: {
            heard.increment()
        }
        context.afterTrackedReadProbe = nil
        #expect(holder.rows.isEmpty, "the arming re-evaluated it, after the write the hook made")
    }

    @Test("where the probe cannot tell, every top-level read arms, as before: correct, only eager")
    func fallbackArmsEveryRead() {
        let context = _ThreadContext.current
        context.armsEveryTopLevelRead = true
        defer { context.armsEveryTopLevelRead = false }
        let source = Stored(1)
        let evaluations = Counter()
        let doubled = Computed {
            evaluations.increment(); return source.value * 2
        }
        _ = doubled.value
        source.value = 2
        #expect(evaluations.value == 2, "armed: re-evaluated by the write")
        let heard = Counter()
        withObservationTracking {
            _ = doubled.value
        } onChange: {
            heard.increment()
        }
        source.value = 3
        #expect(heard.value == 1)
    }

    @Test("an armed computed value's watcher goes with its handle, and the node with it")
    func watcherGoesWithHandle() {
        let source = Stored(1)
        weak var weakNode: _ComputedNode<Int>?
        do {
            let computed = Computed { source.value + 1 }
            withObservationTracking {
                _ = computed.value
            } onChange: {
            }
            let node = computed.node
            weakNode = node
            #expect(
                _graph.withLock { held in
                    held[hasWatcher: node] && _graph.state(held).watchers[ObjectIdentifier(node)] != nil
                })
            source.value = 2  // fires the registration; the node stays armed
            withObservationTracking {
                _ = computed.value
            } onChange: {
            }  // an armed read finds its watcher
            #expect(computed.value == 3)
            #expect(node.observerCountForTesting == 1)  // the one watcher, not a second
        }
        #expect(weakNode == nil, "the watcher, released with the handle, no longer keeps the node alive")
        #expect(source.observerCountForTesting == 0)
    }
}
