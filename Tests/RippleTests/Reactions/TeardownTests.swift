import Testing
@testable import Ripple

/// Ownership and teardown: what runs, in which order, and what it may track, when a reaction
/// re-runs or is cancelled and when a scope is cancelled.
@Suite("Teardown")
struct TeardownTests {
    // MARK: Cleanups run by someone else's cancel are untracked

    @Test("cleanups run by another reaction's cancel do not become its dependencies")
    func cancelledCleanupsAreUntracked() {
        let x = Stored(0)
        let trigger = Stored(0)
        let victim = observe { onCleanup { _ = x.value } }
        let runs = Counter()
        let canceller = observe {
            _ = trigger.value
            runs.increment()
            victim.cancel()
        }
        #expect(runs.value == 1)
        x.value = 1
        #expect(runs.value == 1, "the cancelled reaction's cleanup read x; the canceller must not depend on it")
        trigger.value = 1
        #expect(runs.value == 2)
        canceller.cancel()
    }

    @Test("a scope cancelled inside a reaction: its reactions' and its own cleanups are untracked")
    func cancelledScopeCleanupsAreUntracked() {
        let x = Stored(0)
        let y = Stored(0)
        let scope = ReactionScope()
        scope.run {
            _ = observe { onCleanup { _ = x.value } }
            onCleanup { _ = y.value }
        }
        let runs = Counter()
        let canceller = observe {
            runs.increment()
            scope.cancel()
        }
        x.value = 1
        y.value = 1
        #expect(runs.value == 1)
        canceller.cancel()
    }

    @Test("a child's cleanup that reads a value does not make the parent depend on it")
    func childCleanupsAreUntracked() {
        let x = Stored(0)
        let trigger = Stored(0)
        let runs = Counter()
        let parent = observe {
            _ = trigger.value
            runs.increment()
            _ = observe { onCleanup { _ = x.value } }
        }
        trigger.value = 1  // tears the child down before the parent's second run
        x.value = 1
        #expect(runs.value == 2)
        parent.cancel()
    }

    @Test("cleanups run by a cancel inside a derivation are not its dependencies")
    func cancelInsideDerivationIsUntracked() {
        let x = Stored(0)
        let victim = Cell<Subscription?>(observe { onCleanup { _ = x.value } })
        let evaluations = Counter()
        let derived = Computed {
            evaluations.increment()
            victim.value?.cancel()
            return 0
        }
        let reader = observe { _ = derived.value }
        #expect(evaluations.value == 1)
        x.value = 1
        #expect(evaluations.value == 1, "the cleanup's read of x was attributed to the derivation")
        reader.cancel()
    }

    @Test("cleanups do not own the reactions they create")
    func cleanupsOwnNothing() {
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<Subscription?>(nil)
        let victim = observe { onCleanup { kept.value = observe { seen.append(source.value) } } }
        let trigger = Stored(0)
        let canceller = observe {
            if trigger.value == 1 { victim.cancel() }
        }
        trigger.value = 1  // the victim's cleanup starts a reaction inside the canceller
        trigger.value = 2  // the canceller re-runs: it must not cancel that reaction
        source.value = 1
        #expect(seen.all == [0, 1])
        canceller.cancel()
        kept.value?.cancel()
    }

    // MARK: Order

    /// A reaction with two children and two cleanups, logging its teardown.
    private func makeParent(_ log: Recorder<String>, _ trigger: Stored<Int>) -> Subscription {
        observe {
            let run = trigger.value
            onCleanup { log.append("parent cleanup 1 (run \(run))") }
            _ = observe { onCleanup { log.append("child A (run \(run))") } }
            onCleanup { log.append("parent cleanup 2 (run \(run))") }
            _ = observe { onCleanup { log.append("child B (run \(run))") } }
        }
    }

    @Test("on re-run: children last-created first, then the parent's cleanups last-registered first")
    func rerunOrder() {
        let log = Recorder<String>()
        let trigger = Stored(0)
        let parent = makeParent(log, trigger)
        trigger.value = 1
        #expect(
            log.all == [
                "child B (run 0)", "child A (run 0)",
                "parent cleanup 2 (run 0)", "parent cleanup 1 (run 0)",
            ])
        parent.cancel()
    }

    @Test("on cancel: children last-created first, then the parent's cleanups last-registered first")
    func cancelOrder() {
        let log = Recorder<String>()
        let trigger = Stored(0)
        let parent = makeParent(log, trigger)
        parent.cancel()
        #expect(
            log.all == [
                "child B (run 0)", "child A (run 0)",
                "parent cleanup 2 (run 0)", "parent cleanup 1 (run 0)",
            ])
    }

    @Test("a reaction cancelled during its own run tears down in the same order when the run ends")
    func selfCancelOrder() {
        let log = Recorder<String>()
        let own = Cell<Subscription?>(nil)
        let trigger = Stored(0)
        own.value = observe {
            guard trigger.value == 1 else { return }
            onCleanup { log.append("cleanup 1") }
            _ = observe { onCleanup { log.append("child A") } }
            untracked { own.value }?.cancel()
            onCleanup { log.append("cleanup 2") }
            _ = observe { log.append("child B never starts") }
            log.append("body ends")
        }
        trigger.value = 1
        #expect(log.all == ["body ends", "child A", "cleanup 2", "cleanup 1"])
    }

    @Test("a grandchild is torn down before its parent's cleanups, depth first")
    func nestedOrder() {
        let log = Recorder<String>()
        let parent = observe {
            onCleanup { log.append("parent") }
            _ = observe {
                onCleanup { log.append("child") }
                _ = observe { onCleanup { log.append("grandchild") } }
            }
        }
        parent.cancel()
        #expect(log.all == ["grandchild", "child", "parent"])
    }

    @Test("a scope cancels its reactions last-created first, then runs its cleanups last-registered first")
    func scopeOrder() {
        let log = Recorder<String>()
        let scope = ReactionScope()
        #expect(!scope.isCancelled)
        let inner = Cell<ReactionScope?>(nil)  // a scope released is cancelled: keep it
        scope.run {
            _ = observe { onCleanup { log.append("reaction A") } }
            onCleanup { log.append("scope cleanup 1") }
            inner.value = ReactionScope()
            inner.value?.run { _ = observe { onCleanup { log.append("inner scope's reaction") } } }
            inner.value?.onCleanup { log.append("inner scope cleanup") }
        }
        scope.onCleanup { log.append("scope cleanup 2") }
        scope.run {
            _ = observe { onCleanup { log.append("reaction B") } }
        }
        scope.cancel()
        #expect(scope.isCancelled)
        #expect(
            log.all == [
                "reaction B",
                "inner scope's reaction", "inner scope cleanup",
                "reaction A",
                "scope cleanup 2", "scope cleanup 1",
            ])
        #expect(inner.value?.isCancelled == true)
        scope.cancel()
        #expect(log.count == 6, "a second cancel does nothing")
    }

    @Test("a cleanup registered on a cancelled scope runs at once")
    func cleanupOnCancelledScope() {
        let log = Recorder<String>()
        let scope = ReactionScope()
        scope.cancel()
        scope.onCleanup { log.append("now") }
        #expect(log.all == ["now"])
        scope.run { onCleanup { log.append("also now") } }
        #expect(log.all == ["now", "also now"])
    }

    @Test("a cleanup run at once on a cancelled scope, from a reaction's body, is untracked")
    func cancelledScopeCleanupIsUntracked() {
        let scope = ReactionScope()
        scope.cancel()
        let y = Stored(0)
        let runs = Counter()
        let reaction = observe {
            runs.increment()
            scope.onCleanup { _ = y.value }
        }
        y.value = 1
        #expect(runs.value == 1, "the cleanup's read became a dependency of the reaction")
        reaction.cancel()
    }

    @Test("onCleanup in a cancelled scope's run, from a reaction's body, runs untracked")
    func cancelledScopeGlobalCleanupIsUntracked() {
        let scope = ReactionScope()
        scope.cancel()
        let y = Stored(0)
        let runs = Counter()
        let reaction = observe {
            runs.increment()
            scope.run { onCleanup { _ = y.value } }
        }
        y.value = 1
        #expect(runs.value == 1, "the cleanup's read became a dependency of the reaction")
        reaction.cancel()
    }

    @Test("a cleanup run at once on a cancelled scope owns nothing it creates")
    func cancelledScopeCleanupOwnsNothing() {
        let scope = ReactionScope()
        scope.cancel()
        let trigger = Stored(0), z = Stored(0)
        let childRuns = Counter()
        let child = Cell<Subscription?>(nil)
        let reaction = observe {
            if trigger.value == 0 {
                scope.onCleanup {
                    child.value = observe {
                        _ = z.value; childRuns.increment()
                    }
                }
            }
        }
        trigger.value = 1  // re-runs the reaction, which cancels what its last run owned
        z.value = 1
        #expect(childRuns.value == 2, "the reaction created by the cleanup was cancelled with the caller's run")
        reaction.cancel()
        child.value?.cancel()
    }

    @Test("releasing a scope runs its cleanups")
    func releasedScopeRunsCleanups() {
        let log = Recorder<String>()
        var scope: ReactionScope? = ReactionScope()
        scope?.onCleanup { log.append("released") }
        #expect(log.all.isEmpty)
        scope = nil
        #expect(log.all == ["released"])
    }

    @Test("onCleanup inside a scope's run registers on the scope, even inside a reaction's body")
    func onCleanupInScopeInsideReaction() {
        let log = Recorder<String>()
        let trigger = Stored(0)
        let scope = ReactionScope()
        let reaction = observe {
            if trigger.value == 0 {
                scope.run { onCleanup { log.append("scope's") } }
            }
            onCleanup { log.append("reaction's \(untracked { trigger.value })") }
        }
        trigger.value = 1
        #expect(log.all == ["reaction's 1"])
        scope.cancel()
        #expect(log.all == ["reaction's 1", "scope's"])
        reaction.cancel()
    }

    @Test("a subscription bag cancels what it holds, the last inserted first")
    func bagOrder() {
        let log = Recorder<String>()
        var bag: SubscriptionBag? = SubscriptionBag()
        observe { onCleanup { log.append("first") } }.store(in: bag!)
        Subscription { log.append("second") }.store(in: bag!)
        observe { onCleanup { log.append("third") } }.store(in: bag!)
        bag?.cancelAll()
        #expect(log.all == ["third", "second", "first"])
        observe { onCleanup { log.append("again") } }.store(in: bag!)
        bag = nil
        #expect(log.all == ["third", "second", "first", "again"])
    }

    // MARK: Cancel while running elsewhere

    @Test("cancel during a run on another thread returns at once; the cleanups run when that run ends")
    func cancelDuringRunOnAnotherThread() {
        let started = DispatchSemaphoreLike()
        let proceed = DispatchSemaphoreLike()
        let finished = DispatchSemaphoreLike()
        let trigger = Stored(0)
        let log = Recorder<String>()
        let subscription = observe {
            let run = trigger.value
            onCleanup { log.append("cleanup \(run)") }
            if run == 1 {
                started.signal()
                proceed.wait()
                log.append("run 1 ends")
            }
        }
        Thread.detachNewThreadLike {
            trigger.value = 1
            finished.signal()
        }
        started.wait()
        subscription.cancel()
        #expect(subscription.isCancelled)
        #expect(log.all == ["cleanup 0"], "run 1 is still in progress: its cleanup waits for it")
        proceed.signal()
        finished.wait()
        #expect(log.all == ["cleanup 0", "run 1 ends", "cleanup 1"])
        trigger.value = 2
        #expect(log.count == 3, "a cancelled reaction does not run again")
    }
}
