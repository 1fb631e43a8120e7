import Testing
@testable import Ripple

@Suite("Ownership and leaks")
struct LeakTests {
    final class Token: Sendable {}

    /// Calls `onDeinit` when freed: captured by a derivation, it tells when the graph frees it.
    final class Witness: @unchecked Sendable {
        let onDeinit: @Sendable () -> Void
        init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    /// Holds a computed value the test lets go of.
    final class Holder: @unchecked Sendable { var computed: Computed<Int>? }

    /// A computed value that captures a `Witness` calling `onDeinit`, read by a reaction while
    /// `flag` is true. Its handle is let go of at once, so the reaction's edge keeps the node
    /// alone, and `flag.value = false` makes the graph drop it. Returns the reaction.
    static func nodeKeptOnlyByAReaction(while flag: Stored<Bool>, onDeinit: @escaping @Sendable () -> Void)
        -> Subscription
    {
        let holder = Holder()
        do {
            let witness = Witness(onDeinit)
            holder.computed = Computed {
                _ = witness; return flag.value ? 1 : 0
            }
        }
        let reaction = observe { if flag.value { _ = holder.computed?.value } }
        holder.computed = nil  // the reaction's edge now keeps the node alone
        return reaction
    }

    @Test("an unobserved computed value is freed when its owner lets it go")
    func unobservedComputedIsFreed() {
        let source = Stored(1)
        weak var weakNode: Computed<Int>?
        do {
            let node = Computed { source.value + 1 }
            weakNode = node
            #expect(node.value == 2)
        }
        #expect(weakNode == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("a cancelled reaction frees its closure and its nodes")
    func cancelledReactionFreesEverything() {
        let source = Stored(1)
        weak var weakComputed: Computed<Int>?
        weak var weakToken: Token?
        var subscription: Subscription?
        do {
            let token = Token()
            weakToken = token
            let node = Computed { source.value * 2 }
            weakComputed = node
            subscription = observe {
                _ = token; _ = node.value
            }
        }
        #expect(weakToken != nil)
        #expect(source.observerCountForTesting == 1)
        subscription?.cancel()
        subscription = nil
        #expect(weakToken == nil)
        #expect(weakComputed == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("a reaction released while queued behind another of the same round does not run and is freed")
    func reactionReleasedWhileQueued() {
        final class Holder: @unchecked Sendable { var subscription: Subscription? }
        let source = Stored(0)
        let holder = Holder()
        let secondRuns = Counter()
        weak var weakToken: Token?
        // Subscribed first, so it runs first in the round and releases the second while the
        // second's job is still queued (queued jobs do not retain their reaction).
        let first = observe {
            if source.value == 1 { holder.subscription = nil }
        }
        do {
            let token = Token()
            weakToken = token
            holder.subscription = observe {
                _ = token; _ = source.value; secondRuns.increment()
            }
        }
        #expect(secondRuns.value == 1)
        source.value = 1
        #expect(secondRuns.value == 1)
        #expect(weakToken == nil)
        #expect(source.observerCountForTesting == 1)
        first.cancel()
    }

    @Test("a computed value released while its Observation watcher is queued is freed safely")
    func watcherReleasedWhileQueued() {
        let source = Stored(0)
        let holder = Holder()
        weak var weakComputed: Computed<Int>?
        // Subscribed first, so it runs first in the round and drops the computed value's last
        // owner while the watcher's job is still queued (queued jobs do not retain it).
        let first = observe {
            if source.value == 1 { holder.computed = nil }
        }
        do {
            let computed = Computed { source.value * 2 }
            weakComputed = computed
            holder.computed = computed
            #expect(computed.value == 0)  // a top-level read: creates and arms the watcher
        }
        source.value = 1
        #expect(weakComputed == nil)
        #expect(source.observerCountForTesting == 1)
        first.cancel()
    }

    /// Holds a subscription that a reaction's own body lets go of.
    final class SelfHolder: @unchecked Sendable {
        var subscription: Subscription?
        var hasRun = false
    }

    @Test("a reaction that cancels its own subscription in a run that reads nothing is freed safely")
    func selfCancelInRunThatReadsNothing() {
        let source = Stored(0)
        let holder = SelfHolder()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            holder.subscription = observe {
                _ = token
                if holder.hasRun {
                    // Deferred to the end of the run, which drops the last source too.
                    holder.subscription?.cancel()
                    return
                }
                holder.hasRun = true
                _ = source.value
            }
        }
        source.value = 1
        #expect(weakToken == nil)
        #expect(source.observerCountForTesting == 0)
    }

    @Test("a reaction that releases its own subscription in a run that reads nothing is freed safely")
    func selfReleaseInRunThatReadsNothing() {
        let source = Stored(0)
        let holder = SelfHolder()
        holder.subscription = observe {
            if holder.hasRun {
                holder.subscription = nil
                return
            }
            holder.hasRun = true
            _ = source.value
        }
        source.value = 1
        source.value = 2
        #expect(source.observerCountForTesting == 0)
    }

    @Test("a reaction released by another thread during a run that reads nothing is freed safely")
    func releasedByAnotherThreadWhileRunning() {
        let source = Stored(0)
        let holder = SelfHolder()
        holder.subscription = observe {
            if holder.hasRun {
                let released = DispatchSemaphoreLike()
                Thread.detachNewThreadLike {
                    holder.subscription = nil
                    released.signal()
                }
                released.wait()
                return
            }
            holder.hasRun = true
            _ = source.value
        }
        source.value = 1
        #expect(source.observerCountForTesting == 0)
    }

    @Test("a stored value does not keep its initial value alive once overwritten")
    func storedReleasesItsInitialValue() {
        weak var weakToken: Token?
        let stored: Stored<Token?>
        do {
            let token = Token()
            weakToken = token
            stored = Stored(token)
        }
        stored.value = nil
        #expect(weakToken == nil)
    }

    @Test("a stored value does not keep a batch's original value alive after the batch")
    func storedReleasesTheBatchOriginal() {
        weak var weakToken: Token?
        let stored = Stored<Token?>(nil, equals: { $0 === $1 })
        do {
            let token = Token()
            weakToken = token
            stored.value = token
        }
        batch { stored.value = nil }
        #expect(weakToken == nil)
        // Change-and-change-back detection still works in later batches.
        let runs = Counter()
        let reaction = observe {
            _ = stored.value; runs.increment()
        }
        let other = Token()
        batch {
            stored.value = other
            stored.value = nil
        }
        #expect(runs.value == 1)
        reaction.cancel()
    }

    @Test("a node the graph lets go of is freed with the lock released, so user deinitializers never run under it")
    func droppedNodeIsFreedOutsideTheLock() {
        let lockHeldInDeinit = Recorder<Bool>()
        let flag = Stored(true)
        let reaction = Self.nodeKeptOnlyByAReaction(while: flag) {
            lockHeldInDeinit.append(_graph.lock.isHeldForTesting)
        }
        #expect(lockHeldInDeinit.all.isEmpty)
        flag.value = false  // the reaction stops reading it: the graph drops the node
        #expect(lockHeldInDeinit.all == [false])
        reaction.cancel()
    }

    @Test(
        "a node freed after the lock's release whose deinitializer makes the graph let go of another frees both, round after round"
    )
    func releaseThatReleasesAgain() {
        // Each round: the first reaction drops its computed value; that value's deinitializer
        // writes the flag that makes the second reaction drop its own, on the same thread,
        // while the first release is still draining (the spare buffer handed over again).
        for round in 0..<3 {
            let freed = Recorder<String>()
            let first = Stored(true)
            let second = Stored(true)
            let secondReaction = Self.nodeKeptOnlyByAReaction(while: second) {
                freed.append("second, lock held: \(_graph.lock.isHeldForTesting)")
            }
            let firstReaction = Self.nodeKeptOnlyByAReaction(while: first) {
                freed.append("first, lock held: \(_graph.lock.isHeldForTesting)")
                second.value = false
            }
            #expect(freed.all.isEmpty, "round \(round)")
            first.value = false
            #expect(freed.all == ["first, lock held: false", "second, lock held: false"], "round \(round)")
            firstReaction.cancel()
            secondReaction.cancel()
        }
    }

    @Test(
        "references let go of under the lock are released even when a tracer, called after the lock's release, makes the graph let go of more"
    )
    func releaseWithTracerThatReleasesAgain() {
        final class WritingTracer: GraphTracer, @unchecked Sendable {
            var write: (() -> Void)?
            func record(_ event: TraceEvent) {
                // Once: the tracer's first call writes, and that write lets another node go.
                let pending = write
                write = nil
                pending?()
            }
        }
        let freed = Recorder<String>()
        let first = Stored(true)
        let second = Stored(true)
        let firstReaction = Self.nodeKeptOnlyByAReaction(while: first) { freed.append("first") }
        let secondReaction = Self.nodeKeptOnlyByAReaction(while: second) { freed.append("second") }
        let tracer = WritingTracer()
        tracer.write = { second.value = false }
        withTracer(tracer) {
            first.value = false
        }
        #expect(Set(freed.all) == ["first", "second"])
        firstReaction.cancel()
        secondReaction.cancel()
    }

    @Test("a released subscription frees the reaction")
    func releasedSubscriptionFrees() {
        let source = Stored(1)
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let subscription = observe {
                _ = token; _ = source.value
            }
            _ = subscription
        }
        #expect(weakToken == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("a computed value read under Observation is freed when released")
    func observedComputedIsFreed() {
        let source = Stored(1)
        weak var weakNode: Computed<Int>?
        do {
            let node = Computed { source.value + 1 }
            weakNode = node
            _ = node.value  // a top-level read arms the Observation watcher
        }
        #expect(weakNode == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("event handlers are freed when their subscription ends")
    func eventHandlersFreed() {
        let event = Event<Int>()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let subscription = event.subscribe { _ in _ = token }
            _ = subscription
        }
        #expect(weakToken == nil)
        #expect(event.subscriberCount == 0)
    }

    @Test("cleanups and nested reactions are released on cancel")
    func nestedReleased() {
        let source = Stored(1)
        weak var weakToken: Token?
        var subscription: Subscription?
        do {
            let token = Token()
            weakToken = token
            subscription = observe {
                _ = source.value
                _ = observe {
                    _ = token; _ = source.value
                }
                onCleanup { _ = token }
            }
        }
        source.value = 2
        #expect(weakToken != nil)
        #expect(subscription?.isCancelled == false)
        subscription = nil
        #expect(weakToken == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("a scope and a bag release what they hold")
    func ownersRelease() {
        let source = Stored(1)
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let scope = ReactionScope()
            scope.run {
                _ = observe {
                    _ = token; _ = source.value
                }
            }
            let bag = SubscriptionBag()
            observe {
                _ = token; _ = source.value
            }.store(in: bag)
        }
        #expect(weakToken == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test(
        "many readers of one source can be released in any order",
        arguments: ["first-in first-out", "last-in first-out", "shuffled"])
    func manyReadersReleased(order: String) {
        let source = Stored(0)
        let runs = (0..<600).map { _ in Counter() }
        var subscriptions = runs.map { counter in
            observe {
                _ = source.value; counter.increment()
            }
        }
        var alive = Array(0..<600)
        var generator = SeededGenerator(seed: 42)
        switch order {
        case "last-in first-out": alive.reverse()
        case "shuffled": alive.shuffle(using: &generator)
        default: break
        }
        var cancelled = Set<Int>()
        for (step, index) in alive.enumerated() {
            subscriptions[index].cancel()
            cancelled.insert(index)
            if step % 50 == 0 {
                source.value += 1
                #expect(source.observerCountForTesting == 600 - cancelled.count)
                // Every reaction still subscribed ran once per write; the cancelled ones stopped.
                let live = (0..<600).filter { !cancelled.contains($0) }
                #expect(live.allSatisfy { runs[$0].value == 1 + source.value })
            }
        }
        #expect(!source.hasObserversForTesting)
        let observersLeft = _graph.withLock { held in held[observers: source].slots.count }
        #expect(observersLeft == 0)
        subscriptions.removeAll()
    }
}
