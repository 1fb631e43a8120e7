import Testing
@testable import Ripple

/// Handlers (`onChange`, `when`) do not own what they create: a reaction made inside a handler
/// lives as long as its subscription, unlike one made inside an `observe { }` body.
@Suite("Handler ownership")
struct HandlerOwnershipTests {
    @Test("a reaction created in an onChange handler survives the handler's next call")
    func onChangeHandlerOwnsNothing() {
        let trigger = Stored(0)
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<Subscription?>(nil)
        let handler = trigger.onChange { _, new in
            if new == 1 { kept.value = observe { seen.append(source.value) } }
        }
        trigger.value = 1
        trigger.value = 2  // the handler runs again
        source.value = 1
        #expect(seen.all == [0, 1], "the token is still held, so the reaction still runs")
        handler.cancel()
        source.value = 2
        #expect(seen.all == [0, 1, 2], "cancelling the handler does not stop it either")
        kept.value?.cancel()
        source.value = 3
        #expect(seen.all == [0, 1, 2])
    }

    @Test("a reaction created in a when action runs and lives as long as its subscription")
    func whenActionOwnsNothing() {
        let flag = Stored(false)
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<[Subscription]>([])
        let once = flag.when({ $0 }) { _ in
            kept.value.append(observe { seen.append(source.value) })
        }
        let global = when({ flag.value }) {
            kept.value.append(observe { seen.append(source.value * 10) })
        }
        flag.value = true
        #expect(seen.all == [0, 0])
        source.value = 1
        #expect(seen.all == [0, 0, 1, 10])
        _ = (once, global)
        for subscription in kept.value { subscription.cancel() }
    }

    @Test("reactions created in an observe body are owned by it (by design)")
    func observeBodyOwnsItsReactions() {
        let trigger = Stored(0)
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<Subscription?>(nil)
        let parent = observe {
            if trigger.value == 0 { kept.value = observe { seen.append(source.value) } }
        }
        trigger.value = 1  // the body runs again: its reactions of the last run stop
        source.value = 1
        #expect(seen.all == [0])
        #expect(kept.value?.isCancelled == true)
        parent.cancel()
    }
}
