import Foundation
import Ripple
import RippleStore
import Testing

/// A main-actor store's state.
private struct MainSinkState: Equatable {
    var count = 0
}

/// A `MainActorStore`'s plain subscribers are delivered as a `Store`'s are: by one main-actor
/// reaction per store, in subscription order (see `StoreSinkDeliveryTests`).
@MainActor
@Suite("MainActorStore subscriber delivery")
struct MainActorStoreSinkDeliveryTests {
    @Test("a commit reaches any number of subscribers through one reaction, in subscription order")
    func oneReactionForEverySubscriber() {
        let store = MainActorStore<MainSinkState, Never>(initialState: MainSinkState(), name: "screen")
        var order: [Int] = []
        let subscriptions = (0..<50).map { index in
            store.sinkState(dropsFirst: true) { _ in order.append(index) }
        }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            store.commit("increment") { $0.count += 1 }
        }
        // A reaction per subscriber woke 50 of them.
        #expect(recorder.commitLines == ["commit screen increment: woke 'screen subscribers'"])
        #expect(order == Array(0..<50))
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a subscriber made inside a delivery gets the state at once, then the next commits")
    func subscriberMadeInsideADelivery() {
        let store = MainActorStore<MainSinkState, Never>(initialState: MainSinkState())
        var seen: [String] = []
        var inner: [Subscription] = []
        let outer = store.sinkState(dropsFirst: true) { changes in
            guard changes.current.count == 1 else { return }
            inner.append(store.sinkState { seen.append("inner \($0.current.count)") })
        }
        let last = store.sinkState(dropsFirst: true) { seen.append("last \($0.current.count)") }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        // Subscription order: `last` was made before `inner`.
        #expect(seen == ["inner 1", "last 1", "last 2", "inner 2"])
        withExtendedLifetime((outer, last, inner)) {}
    }

    @Test("a subscriber cancelled by an earlier one during a delivery is not called for it")
    func cancelledDuringADelivery() {
        let store = MainActorStore<MainSinkState, Never>(initialState: MainSinkState())
        var seen: [String] = []
        var victim: Subscription?
        let first = store.sinkState(dropsFirst: true) { _ in
            victim?.cancel()
            seen.append("first")
        }
        victim = store.sinkState(dropsFirst: true) { _ in seen.append("victim") }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(seen == ["first", "first"])
        withExtendedLifetime(first) {}
    }

    @Test("a subscriber cancelled on another thread is not called again")
    func cancelledOnAnotherThread() async {
        let store = MainActorStore<MainSinkState, Never>(initialState: MainSinkState())
        var seen: [Int] = []
        let subscription = store.sinkState(dropsFirst: true) { seen.append($0.current.count) }
        store.commit { $0.count = 1 }
        await Task.detached { subscription.cancel() }.value
        store.commit { $0.count = 2 }
        #expect(seen == [1])
    }

    @Test("a subscriber made inside a reaction ends when the reaction runs again")
    func subscriberOwnedByAReaction() {
        let store = MainActorStore<MainSinkState, Never>(initialState: MainSinkState())
        let trigger = Stored(0)
        var seen: [String] = []
        let reaction = observeOnMainActor {
            let generation = trigger.value
            _ = store.sinkState(dropsFirst: true) { seen.append("g\(generation) \($0.current.count)") }
        }
        store.commit { $0.count = 1 }
        trigger.value = 1
        store.commit { $0.count = 2 }
        #expect(seen == ["g0 1", "g1 2"])
        reaction.cancel()
        store.commit { $0.count = 3 }
        #expect(seen == ["g0 1", "g1 2"])
    }

    @Test("the store's release ends its subscribers and its dispatching reaction")
    func releaseEndsTheSubscribers() {
        var store: MainActorStore<MainSinkState, Never>? = MainActorStore(initialState: MainSinkState())
        weak let released = store
        var seen: [Int] = []
        let subscription = store!.sinkState(dropsFirst: true) { seen.append($0.current.count) }
        store!.commit { $0.count = 1 }
        store = nil
        #expect(released == nil)
        #expect(seen == [1])
        withExtendedLifetime(subscription) {}
    }
}
