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

    @Test("an event subscription made in a scope's run ends with the scope")
    func eventSubscriptionOwnedByScope() {
        let event = Event<Int>()
        let count = Counter()
        let scope = ReactionScope()
        let subscription = scope.run { event.subscribe { _ in count.increment() } }
        event.send(1)
        scope.cancel()
        event.send(2)
        #expect(count.value == 1)
        #expect(event.subscriberCount == 0)
        let late = scope.run { event.subscribe { _ in count.increment() } }
        event.send(3)
        #expect(count.value == 1, "a subscription made in a cancelled scope never starts")
        #expect(event.subscriberCount == 0)
        _ = (subscription, late)
    }

    @Test("an event subscription made in a reaction's body ends before its next run; withoutOwner keeps it")
    func eventSubscriptionOwnedByReaction() {
        let event = Event<Int>()
        let trigger = Stored(0)
        let owned = Counter(), kept = Counter()
        let held = Recorder<Subscription>()
        let reaction = observe {
            if trigger.value == 0 {
                held.append(event.subscribe { _ in owned.increment() })
                held.append(withoutOwner { event.subscribe { _ in kept.increment() } })
            }
        }
        event.send(1)
        trigger.value = 1
        event.send(2)
        #expect(owned.value == 1)
        #expect(kept.value == 2)
        reaction.cancel()
    }

    @Test("a willChange handler added in a reaction's body is removed before its next run")
    func willChangeOwnedByReaction() {
        let x = Stored(0)
        let trigger = Stored(0)
        let count = Counter()
        let held = Recorder<Subscription>()
        let reaction = observe {
            if trigger.value == 0 { held.append(x.willChange { _, _ in count.increment() }) }
        }
        x.value = 1
        trigger.value = 1
        x.value = 2
        #expect(count.value == 1)
        reaction.cancel()
    }
}

/// A review found `observe(catch:)`'s handler run as part of the body: its reads were
/// dependencies (a read of `banner` ran the reaction again: 3 runs for 1), a failure counter it
/// incremented ran away, and a reaction it created was cancelled by the body's next run.
@Suite("observe(catch:)'s handler is a handler")
struct CatchHandlerTests {
    struct SaveError: Error {}

    @Test("its reads are not dependencies of the reaction")
    func readsAreNotTracked() {
        let document = Stored(0)
        let banner = Stored("")
        let runs = Counter()
        let saver = observe(catch: { (_: SaveError) in _ = banner.value }) { () throws(SaveError) in
            runs.increment()
            _ = document.value
            throw SaveError()
        }
        banner.value = "x"
        banner.value = "y"
        #expect(runs.value == 1)
        saver.cancel()
    }

    @Test("it may count failures in a value it reads")
    func countsFailures() {
        let input = Stored(0)
        let failures = Stored(0)
        let saver = observe(catch: { (_: SaveError) in failures.value = failures.value + 1 }) {
            () throws(SaveError) in
            if input.value < 0 { throw SaveError() }
        }
        input.value = -1
        input.value = -2
        #expect(failures.value == 2)
        saver.cancel()
    }

    @Test("a reaction it creates is not cancelled by the body's next run")
    func doesNotOwnWhatItCreates() {
        let input = Stored(0)
        let watched = Stored(0)
        let innerRuns = Counter()
        let kept = Cell<[Subscription]>([])
        let saver = observe(catch: { (_: SaveError) in
            kept.value.append(
                observe {
                    _ = watched.value; innerRuns.increment()
                })
        }) { () throws(SaveError) in
            if input.value == 0 { throw SaveError() }
        }
        input.value = 1
        watched.value = 1
        #expect(innerRuns.value == 2)
        saver.cancel()
        withExtendedLifetime(kept) {}
    }
}

/// A review found a `when` that fired and stopped still holding its condition and action, and
/// what they captured, for as long as its subscription lived.
@Suite("A fired when lets go of its closures")
struct WhenReleaseTests {
    @Test("what the action captured is released once it fired")
    func releasesCapturesAfterFiring() {
        let source = Stored(0)
        weak var weakCaptured: DeinitAction?
        let once: Subscription
        do {
            let captured = DeinitAction {}
            weakCaptured = captured
            once = source.when({ $0 > 0 }) { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        source.value = 1
        #expect(weakCaptured == nil)
        withExtendedLifetime(once) {}
    }
}
