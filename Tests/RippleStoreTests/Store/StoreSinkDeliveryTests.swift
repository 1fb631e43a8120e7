import Foundation
import Ripple
import RippleStore
import Testing

/// What one subscriber saw, and whether two of its deliveries ever overlapped.
private final class SinkLog: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private(set) var versions: [UInt64] = []
    private(set) var overlapped = false

    func record(_ version: UInt64) {
        lock.withLock {
            if inside { overlapped = true }
            inside = true
        }
        // A window in which a second, overlapping delivery would be seen.
        for _ in 0..<50 { _ = lock.withLock { versions.count } }
        lock.withLock {
            versions.append(version)
            inside = false
        }
    }

    var snapshot: (versions: [UInt64], overlapped: Bool) { lock.withLock { (versions, overlapped) } }
}

@Suite("Store subscriber delivery")
struct StoreSinkDeliveryTests {
    @Test("a commit reaches any number of subscribers through one reaction, in subscription order")
    func oneReactionForEverySubscriber() {
        let store = Store<AppState, Never>(initialState: AppState(), name: "app")
        let order = Recorder<Int>()
        let subscriptions = (0..<50).map { index in
            store.sinkState(dropsFirst: true) { _ in order.append(index) }
        }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            store.commit("increment") { $0.count += 1 }
        }
        // A reaction per subscriber woke 50 of them.
        #expect(recorder.commitLines == ["commit app increment: woke 'app subscribers'"])
        #expect(order.values == Array(0..<50))
        withExtendedLifetime(subscriptions) {}
    }

    @Test(
        "subscribers made while another thread commits see every commit from their first, once, in order, one at a time",
        arguments: 0..<8)
    func subscribersMadeDuringCommits(round: Int) {
        let store = Store<AppState, Never>(initialState: AppState())
        let commits = 300
        let logs = (0..<24).map { _ in SinkLog() }
        let kept = Recorder<Subscription>()
        runOnThreads(2) { thread in
            if thread == 0 {
                for _ in 0..<commits { store.commit { $0.count += 1 } }
            } else {
                for log in logs {
                    kept.append(store.sinkState { changes in log.record(changes.version) })
                }
            }
        }
        for log in logs {
            let (versions, overlapped) = log.snapshot
            #expect(!overlapped)
            guard let first = versions.first else {
                Issue.record("a subscriber saw nothing")
                continue
            }
            #expect(versions == Array(first...UInt64(commits)), "round \(round)")
        }
        withExtendedLifetime(kept) {}
    }

    @Test("a subscriber made inside a delivery gets the state at once, then the next commits")
    func subscriberMadeInsideADelivery() {
        let store = Store<AppState, Never>(initialState: AppState())
        let seen = Recorder<String>()
        let inner = Recorder<Subscription>()
        let outer = store.sinkState(dropsFirst: true) { changes in
            guard changes.current.count == 1 else { return }
            inner.append(store.sinkState { seen.append("inner \($0.current.count)") })
        }
        let last = store.sinkState(dropsFirst: true) { seen.append("last \($0.current.count)") }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        // Subscription order: `last` was made before `inner`.
        #expect(seen.values == ["inner 1", "last 1", "last 2", "inner 2"])
        withExtendedLifetime((outer, last, inner)) {}
    }

    @Test("a subscriber cancelled by an earlier one during a delivery is not called for it")
    func cancelledDuringADelivery() {
        let store = Store<AppState, Never>(initialState: AppState())
        let seen = Recorder<String>()
        let victim = Recorder<Subscription>()
        let first = store.sinkState(dropsFirst: true) { _ in
            victim.values.first?.cancel()
            seen.append("first")
        }
        victim.append(store.sinkState(dropsFirst: true) { _ in seen.append("victim") })
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(seen.values == ["first", "first"])
        withExtendedLifetime(first) {}
    }

    @Test("a subscriber made inside a reaction ends when the reaction runs again")
    func subscriberOwnedByAReaction() {
        let store = Store<AppState, Never>(initialState: AppState())
        let trigger = Stored(0)
        let seen = Recorder<String>()
        let reaction = observe {
            let generation = trigger.value
            _ = store.sinkState(dropsFirst: true) { seen.append("g\(generation) \($0.current.count)") }
        }
        store.commit { $0.count = 1 }
        trigger.value = 1
        store.commit { $0.count = 2 }
        #expect(seen.values == ["g0 1", "g1 2"])
        reaction.cancel()
        store.commit { $0.count = 3 }
        #expect(seen.values == ["g0 1", "g1 2"])
    }
}
