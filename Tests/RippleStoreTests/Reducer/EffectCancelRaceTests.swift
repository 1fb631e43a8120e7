import Foundation
import Ripple
import RippleStore
import Testing

/// A reducer whose `.start` starts a `create` effect under the id "feed", whose continuation
/// the test drives from its own threads; `.stop` cancels it. `.marker` is sent by the test
/// after `send(.stop)` returned: a `.tick` reduced after it was queued after the cancel
/// returned.
private struct Feed: Reducer {
    struct State: Equatable {
        var ticks = 0
        var markerSeen = false
        var ticksAfterMarker = 0
    }

    enum Action: Sendable { case start, stop, marker, tick }

    let continuation: RDBox<EffectContinuation<Action>?>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
            return Effect.create { [continuation] in continuation.value = $0 }.cancellable(id: "feed")
        case .stop:
            return .cancel(id: "feed")
        case .marker:
            state.markerSeen = true
            return .none
        case .tick:
            state.ticks += 1
            if state.markerSeen { state.ticksAfterMarker += 1 }
            return .none
        }
    }
}

/// `cancel(id:)` against an effect sending from other threads at the same time.
@Suite struct EffectCancelRaceTests {
    /// Threads send through a `create` effect's continuation while another thread cancels it
    /// (`send(.stop)`) and then sends `.marker`. Once the cancel has returned the effect's
    /// sends are dropped (``Effect/cancel(id:)``), so no `.tick` may be queued after
    /// `.marker`. More sending threads than processors, so that one is often preempted between
    /// the continuation's check and the store's queue.
    @Test("no action of a cancelled effect is queued after the cancel returned")
    func noActionIsQueuedAfterTheCancelReturned() {
        let senders = 4
        var late = 0
        // Under a sanitizer (CI sets its options), a twentieth of the work: there, each send
        // costs tens of times more, and the full count starved the other tests of the run.
        let sanitized = ["TSAN_OPTIONS", "ASAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }
        let rounds = sanitized ? 20 : 100
        let sends = sanitized ? 500 : 2_000
        for _ in 0..<rounds {
            let box = RDBox<EffectContinuation<Feed.Action>?>(nil)
            let store = ReducerStore(reducer: Feed(continuation: box), initialState: Feed.State())
            store.send(.start)
            guard let continuation = box.value else {
                Issue.record("the create effect did not start")
                return
            }
            runOnThreads(senders + 1) { index in
                if index < senders {
                    for _ in 0..<sends { continuation.send(.tick) }
                    return
                }
                var spins = 0
                while store.currentState.ticks < 100, spins < 1_000_000 {
                    sched_yield()
                    spins += 1
                }
                store.send(.stop)
                store.send(.marker)
            }
            late += store.currentState.ticksAfterMarker
        }
        #expect(late == 0, "ticks queued after the cancel returned: \(late)")
    }
}
