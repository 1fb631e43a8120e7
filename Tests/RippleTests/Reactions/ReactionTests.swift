import Testing
@testable import Ripple

@Suite("Reactions")
struct ReactionTests {
    @Test("observe runs at once and after every change of what it read")
    func observeRuns() {
        let name = Stored("a")
        let seen = Recorder<String>()
        let subscription = observe { seen.append(name.value) }
        name.value = "b"
        name.value = "c"
        #expect(seen.all == ["a", "b", "c"])
        subscription.cancel()
        name.value = "d"
        #expect(seen.all == ["a", "b", "c"])
    }

    @Test("releasing the subscription cancels the reaction")
    func releaseCancels() {
        let value = Stored(0)
        let runs = Counter()
        var subscription: Subscription? = observe {
            _ = value.value; runs.increment()
        }
        _ = subscription
        subscription = nil
        value.value = 1
        #expect(runs.value == 1)
    }

    @Test("onChange gives the old and the new value, and does not run at once")
    func onChange() {
        let value = Stored(1)
        let seen = Recorder<String>()
        let subscription = value.onChange { old, new in seen.append("\(old)→\(new)") }
        #expect(seen.all.isEmpty)
        value.value = 2
        value.value = 2
        value.value = 5
        #expect(seen.all == ["1→2", "2→5"])
        subscription.cancel()
    }

    @Test("when fires once when the condition becomes true")
    func whenFiresOnce() {
        let value = Stored(0)
        let fired = Recorder<Int>()
        let subscription = value.when({ $0 >= 2 }) { fired.append($0) }
        value.value = 1
        value.value = 2
        value.value = 3
        value.value = 0
        value.value = 5
        #expect(fired.all == [2])
        #expect(subscription.isCancelled == false)
        let immediate = Counter()
        let already = when({ value.value == 5 }) { immediate.increment() }
        #expect(immediate.value == 1)
        _ = already
    }

    @Test("a subscription bag cancels everything it holds when released")
    func bagCancelsOnDeinit() {
        let value = Stored(0)
        let runs = Counter()
        var bag: SubscriptionBag? = SubscriptionBag()
        observe {
            _ = value.value; runs.increment()
        }.store(in: bag!)
        value.onChange { _, _ in runs.increment() }.store(in: bag!)
        #expect(bag!.count == 2)
        value.value = 1
        #expect(runs.value == 3)
        bag = nil
        value.value = 2
        #expect(runs.value == 3)
    }

    @Test("a cleanup runs before the next run and on cancel")
    func cleanups() {
        let value = Stored(0)
        let log = Recorder<String>()
        let subscription = observe {
            let current = value.value
            log.append("run \(current)")
            onCleanup { log.append("cleanup \(current)") }
        }
        value.value = 1
        subscription.cancel()
        #expect(log.all == ["run 0", "cleanup 0", "run 1", "cleanup 1"])
    }

    @Test("a reaction may return its cleanup")
    func returnedCleanup() {
        let value = Stored(0)
        let log = Recorder<String>()
        let subscription = observeWithCleanup {
            let current = value.value
            log.append("run \(current)")
            return { log.append("cleanup \(current)") }
        }
        value.value = 1
        subscription.cancel()
        #expect(log.all == ["run 0", "cleanup 0", "run 1", "cleanup 1"])
    }

    @Test("nested reactions are cancelled when their parent re-runs or is cancelled")
    func nestedReactions() {
        let outer = Stored(0)
        let inner = Stored(0)
        let log = Recorder<String>()
        let subscription = observe {
            let generation = outer.value
            _ = observe { log.append("inner \(generation):\(inner.value)") }
        }
        inner.value = 1
        outer.value = 1
        inner.value = 2
        #expect(log.all == ["inner 0:0", "inner 0:1", "inner 1:1", "inner 1:2"])
        subscription.cancel()
        inner.value = 3
        #expect(log.count == 4)
    }

    @Test("a scope cancels its children with it")
    func scopeCancelsChildren() {
        let value = Stored(0)
        let runs = Counter()
        let scope = ReactionScope()
        scope.run {
            _ = observe {
                _ = value.value; runs.increment()
            }
            _ = observe {
                _ = value.value; runs.increment()
            }
        }
        #expect(scope.count == 2)
        value.value = 1
        #expect(runs.value == 4)
        scope.cancel()
        value.value = 2
        #expect(runs.value == 4)
        scope.run { _ = observe { runs.increment() } }
        #expect(runs.value == 4, "a cancelled scope starts nothing")
    }

    @Test("untracked reads do not become dependencies")
    func untrackedReads() {
        let tracked = Stored(0)
        let ignored = Stored(0)
        let runs = Counter()
        let subscription = observe {
            _ = tracked.value
            _ = untracked { ignored.value }
            runs.increment()
        }
        ignored.value = 1
        #expect(runs.value == 1)
        tracked.value = 1
        #expect(runs.value == 2)
        let derived = Computed { tracked.value + untracked { ignored.value } }
        #expect(derived.value == 2)
        ignored.value = 5
        #expect(derived.value == 2, "untracked inside a derivation is not a dependency")
        subscription.cancel()
    }

    @Test("a reaction created in withoutOwner inside another reaction is not its child")
    func withoutOwnerDetachesChildren() {
        let trigger = Stored(0)
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<Subscription?>(nil)
        let parent = observe {
            _ = trigger.value
            if untracked({ kept.value }) == nil {
                kept.value = withoutOwner { observe { seen.append(source.value) } }
            }
        }
        trigger.value = 1  // the parent re-runs; a child would be cancelled
        source.value = 1
        #expect(seen.all == [0, 1])
        parent.cancel()
        source.value = 2
        #expect(seen.all == [0, 1, 2], "only its subscription stops it")
        kept.value?.cancel()
    }

    @Test("a reaction run by a write made inside untracked { } still tracks its own reads")
    func reactionDeliveredFromUntrackedTracks() {
        let source = Stored(0)
        let seen = Recorder<Int>()
        let subscription = observe { seen.append(source.value) }
        untracked { source.value = 1 }
        source.value = 2
        #expect(seen.all == [0, 1, 2])
        subscription.cancel()
    }

    @Test("a reaction that stops reading a value stops reacting to it")
    func reactionDynamicDependencies() {
        let flag = Stored(true)
        let a = Stored(0)
        let runs = Counter()
        let subscription = observe {
            if flag.value { _ = a.value }
            runs.increment()
        }
        a.value = 1
        #expect(runs.value == 2)
        flag.value = false
        a.value = 2
        #expect(runs.value == 3)
        subscription.cancel()
    }
}
