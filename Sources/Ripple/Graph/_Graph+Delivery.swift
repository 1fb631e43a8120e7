import _RippleRef

extension _Graph {
    /// Runs `body` as delivery work on this thread: writes made inside it are queued and
    /// applied after it, one round at a time, each round followed by the reactions it triggers.
    ///
    /// Inside a batch, queued writes join the batch and reactions wait for its end; inside a
    /// delivery's round (an event sent from a reaction), that is the round's batch, and the
    /// writes queued before the work keep their own rounds after it. Called with the lock
    /// released.
    func delivering(_ context: _ThreadContext, _ body: () -> Void) {
        guard let work = context.writes.beginDeliveryWork() else {
            body()
            return
        }
        body()
        switch context.writes.endDeliveryWork(work) {
        case .deliver: deliver(context)
        case .applyQueuedInBatch: applyDeferredWrites(context)
        }
        context.writes.resumeQueue(after: work)
    }

    /// Runs every queued job, then every queued write in order, each write in a round of its own.
    /// Called with the lock released, outside any batch.
    ///
    /// Most writes queue nothing (no reaction reads the value), or ran their jobs under their
    /// commit's acquisition of the lock: the check is inlined into the caller, with no call.
    @inline(__always)
    func deliver(_ context: _ThreadContext) {
        guard context.writes.mayDeliver else { return }
        if !context.jobs.hasJobs, !context.writes.hasQueuedWrites { return }
        deliverQueued(context)
    }

    /// `deliver` once something is queued.
    @inline(never)
    private func deliverQueued(_ context: _ThreadContext) {
        context.writes.beginDelivery()
        while true {
            if context.jobs.hasJobs { runPendingJobs(context) }
            switch context.writes.nextRound() {
            case .done:
                context.writes.endDelivery()
                return
            case .runaway(let write):
                _rippleFailure(
                    "runaway reaction: \(write.origin) keeps writing values that re-trigger reactions (more than \(_Graph.maximumRounds) rounds in one delivery). A reaction that writes what it reads must stop changing it."
                )
            case .apply(let write):
                context.writes.beginRound()
                write.applyAttributed(context) {
                    context.writes.endRound()
                    // The round's writes were staged: applied as one unit, atomically for readers.
                    context.commitStaged()
                }
                // Commits traced in the round are recorded after the reactions it runs next.
                if !context.batchCommits.isEmpty { context.traceBatchCommitsAfterNextJobs() }
                context.writes.resumeDelivery()
            }
        }
    }

    /// Releases the lock a commit on this thread holds once, after running the jobs the commit
    /// queued (the reactions its writes triggered) under that same acquisition, as a delivery
    /// would next, when this thread may deliver now: not delivering, outside any batch. Saves
    /// a write that triggers reactions one lock pair. Used by a batch's commit
    /// (`commitStaged(runningJobs:)`) and by an unbatched write (`_commitWrite(runningJobs:)`).
    @inline(__always)
    func unlockRunningQueuedJobs(_ context: _ThreadContext, _ held: consuming _HeldLock) {
        guard context.jobs.hasJobs, context.writes.mayDeliver, lock.isHeldOnce else {
            held.release(self)
            return
        }
        context.writes.beginRunningJobs()
        runQueuedJobsAndUnlock(context, held)
        context.writes.endRunningJobs()
    }

    /// Runs the queued jobs in order, holding the lock from one to the next and releasing it only
    /// around what calls user code (a reaction's body and teardown, an executor hop; see
    /// `perform`), so a round costs one acquisition plus one per reaction that runs. Then, with
    /// the lock released, reports the changes Observation must hear and drops the jobs'
    /// references (which may free user objects).
    private func runPendingJobs(_ context: _ThreadContext) {
        runQueuedJobsAndUnlock(context, takeLock())
    }

    /// `runPendingJobs` with the lock already held once (`held`: by a write's or a batch's
    /// commit, which goes on to run the jobs it queued without releasing the lock in between).
    /// Releases `held`, then finishes as `runPendingJobs` does. Called while delivering
    /// (`context.writes.isDelivering`).
    func runQueuedJobsAndUnlock(_ context: _ThreadContext, _ held: consuming _HeldLock) {
        while let index = context.jobs.next() {
            let job = context.jobs.jobs[index]
            job.ref.with { node in
                switch job.kind {
                case .reaction:
                    let reaction = _downcast(node, to: _ReactionNode.self)
                    var action = reaction.runRequested(self, held)
                    // The check runs here, under the lock: a reaction whose sources did not
                    // change (the common job of a write whose change stopped on the way) is
                    // done without a call to `perform`.
                    if action == .checkSources { action = reaction.checkSources(self, held) }
                    if action != .none { perform(action, for: reaction, context, &held) }
                case .watch:
                    let watcher = _downcast(node, to: _WatcherNode.self)
                    if let subject = watcher.changedObservationSubject(held) {
                        context.notices.append(subject.retain())
                    }
                case .notify:
                    if let subject = node._changedObservationSubject(held) { context.notices.append(subject.retain()) }
                }
                // A subscriber's job is done only now: a disposal during a reaction's run (the
                // lock is released around the body) sees it still queued and keeps the node alive.
                if job.kind != .notify,
                    held[lifecycle: _downcast(node, to: _SubscriberNode.self)].jobFinished() == .releaseHold
                {
                    context.jobs.jobs[index].isRetained = true
                }
            }
        }
        held.release(self)
        for index in 0..<context.notices.count {
            context.notices[index].with { $0.notifyChange() }
            context.notices[index].release()
        }
        context.notices.removeAllKeepingCapacity()
        for index in 0..<context.jobs.jobs.count where context.jobs.jobs[index].isRetained {
            context.jobs.jobs[index].ref.release()
        }
        context.jobs.end()
    }

    /// Runs `reaction` on this thread if a source changed since its last run (or it never ran),
    /// or sends the run to its executor; `scheduledRunArrived`: this is the run sent there,
    /// arriving. Called with the lock released, outside any delivery round's lock.
    func runReaction(_ reaction: _ReactionNode, _ context: _ThreadContext, scheduledRunArrived: Bool = false) {
        var held = takeLock()
        let action = scheduledRunArrived ? reaction.scheduledRunArrived(held) : reaction.runRequested(self, held)
        perform(action, for: reaction, context, &held)
        held.release(self)
    }

    /// Performs what the reaction's lifecycle asked for, and what follows, until it asks for
    /// nothing more. Takes the caller's acquisition `inout`: it releases it around what calls
    /// user code (the body with the previous run's teardown, the teardown of a disposal, the
    /// executor hop) and leaves a new acquisition in its place, so the caller holds the lock
    /// again when it returns, and its signature says the lock was let go meanwhile.
    ///
    /// Never inlined and synchronous: it takes the lock back with the thread's identity read in
    /// place (see `_Lock`).
    @inline(never)
    private func perform(
        _ first: _Lifecycle.RunAction, for reaction: _ReactionNode, _ context: _ThreadContext,
        _ held: inout _HeldLock
    ) {
        let me = _Lock.threadOfNonInlinedSynchronousCaller
        var action = first
        while true {
            switch action {
            case .none:
                return
            case .checkSources:
                action = reaction.checkSources(self, held)
            case .sendToExecutor:
                held.release(self)
                reaction.sendToExecutor()
                held = takeLock(as: me)
                return
            case .run:
                var run = reaction.beginRun(self, held)
                // Which reads the run recorded is this thread's; a run this one interrupts
                // (a reaction created inside a body) gets its state back when this one ends.
                let interrupted = beginTracking(reaction, context, held)
                // The run reads the graph as it is now, whatever other threads write meanwhile.
                beginSnapshot(of: reaction, context, held)
                held.release(self)
                reaction.runBody(&run, context)
                held = takeLock(as: me)
                endSnapshot(context, held)
                endTracking(reaction, context, resuming: interrupted, held)
                switch reaction.endRun(self, context, run, held) {
                case .none:
                    return
                case .checkSources:
                    action = reaction.checkSources(self, held)
                case .dispose(let holdingForQueuedJobs):
                    let disposal = reaction.dispose(
                        self, holdingForQueuedJobs: holdingForQueuedJobs, releasingRunHold: true, held)
                    held.release(self)
                    reaction.finish(disposal)
                    held = takeLock(as: me)
                    return
                }
            }
        }
    }

    /// Inside a batch: applies the queued writes now, in order, as part of the batch.
    func applyDeferredWrites(_ context: _ThreadContext) {
        while let write = context.writes.nextQueuedInBatch() {
            write.applyAttributed(context)
        }
    }

    /// Queues a write made while delivering (``_WritePipeline/Route/queue``), to be applied after
    /// the current round. `writesNothing`: a step queued in order with the writes that changes no
    /// value (see `_DeferredWrite.writesNothing`).
    func queueWrite(_ context: _ThreadContext, writesNothing: Bool = false, _ apply: @escaping () -> Void) {
        context.writes.queue(_DeferredWrite(apply: apply, reaction: context.reaction, writesNothing: writesNothing))
    }
}

// MARK: - A reaction's run

// The steps `perform` takes, in its order: with the lock held (never released), the lifecycle
// is asked what to do (`runRequested`, `checkSources`), the run begins (`beginRun`, then
// `beginTracking` and `beginSnapshot`); with the lock released, the body runs (`runBody`); with
// the lock held again, the run ends (`endSnapshot`, `endTracking`, `endRun`).
extension _ReactionNode {
    /// A run was asked for: a job for the reaction was delivered, or it was just
    /// created. On the main thread a main-actor reaction runs at once, in this round, like any
    /// reaction: the main actor's work is serialized with whatever runs on that thread, and a
    /// run already sent finds nothing stale when it arrives, and does nothing. Other reactions
    /// bound to an executor are sent there.
    @inline(__always)
    func runRequested(_ graph: _Graph, _ held: borrowing _HeldLock) -> _Lifecycle.RunAction {
        if !isBoundToExecutor { return held[lifecycle: self].runRequested(canRunHere: true) }
        return scheduledRunRequested(graph, held)
    }

    /// ``runRequested(_:_:)`` for a reaction bound to an executor: out of line, off
    /// the path of the other reactions.
    @inline(never)
    private func scheduledRunRequested(_ graph: _Graph, _ held: borrowing _HeldLock) -> _Lifecycle.RunAction {
        held[lifecycle: self].runRequested(canRunHere: runsOnMainActor && graph.isOnMainThread())
    }

    /// The run sent to the executor arrived there.
    func scheduledRunArrived(_ held: borrowing _HeldLock) -> _Lifecycle.RunAction {
        held[lifecycle: self].scheduledRunArrived()
    }

    /// Checks whether a source changed since the last run, for the lifecycle's
    /// `checkSources`: only a marked reaction can have changed sources. The lifecycle clears
    /// the mark.
    func checkSources(_ graph: _Graph, _ held: borrowing _HeldLock) -> _Lifecycle.RunAction {
        let changed = held[lifecycle: self].isMarked && graph.sourcesChanged(self, held)
        return held[lifecycle: self].sourcesChecked(changed: changed)
    }

    /// Starts a run of the body (the lifecycle in `running`, its mark cleared): takes
    /// the previous run's teardown. (The caller then starts tracking reads:
    /// `_Graph.beginTracking`.)
    @inline(__always)
    func beginRun(_ graph: _Graph, _ held: borrowing _HeldLock) -> _ReactionRun {
        // Whether this run keeps its sources' values is decided at its start: a reaction that
        // first asks why during a run starts keeping them at its next run.
        let keepsValues = held[lifecycle: self].recordsWhy
        var run = _ReactionRun(
            insideDerivation: graph.state(held).evaluatingRef != nil,
            records: graph.isTracing || keepsValues,
            keepsValues: keepsValues
        )
        // Most runs leave nothing to tear down: then the run carries no arrays to release.
        run.teardown = extras?.takeTeardown()
        if run.records { recordRunStart(graph, held) }
        return run
    }

    /// Ends a run of the body (lock held again, reads no longer tracked: `_Graph.endTracking`):
    /// records the run for traces and `whyDidThisRun`, and says what comes next.
    @inline(__always)
    func endRun(
        _ graph: _Graph, _ context: _ThreadContext, _ run: consuming _ReactionRun, _ held: borrowing _HeldLock
    ) -> _Lifecycle.RunFinishedAction {
        if run.records { recordRunEnd(graph, context, keepingValues: run.keepsValues, held) }
        return held[lifecycle: self].runFinished()
    }

    /// Runs the body once (lock released): first tears down the previous run (its children, then
    /// its cleanups), then runs the body as the thread's running reaction and owner.
    func runBody(_ run: inout _ReactionRun, _ context: _ThreadContext) {
        if let teardown = run.teardown {
            run.teardown = nil
            teardown.run(insideDerivation: run.insideDerivation)
        }
        // A write made inside `untracked { }` delivers from inside it; the reaction's
        // own reads must still be tracked.
        let savedUntrackedDepth = context.untrackedDepth
        context.untrackedDepth = 0
        context.running(_Ref(self as _DerivedNode), ownedBy: self, body)
        context.untrackedDepth = savedUntrackedDepth
    }
}

extension _Graph {
    /// Notes a reaction run about to start on `context`'s thread. It reads the
    /// graph as it is until another thread's change touches what it read.
    ///
    /// - Complexity: O(1), and O(1) amortized for a run nested in another.
    @inline(__always)
    func beginSnapshot(of reaction: _ReactionNode, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let staging = context.staging
        if staging.runReaction != nil {
            suspendCurrentRun(staging, held)
        } else {
            let ref = _Ref(staging)
            let head = locked.snapshots.runningHead
            staging.nextRunning = head
            head?.with { $0.previousRunning = ref }
            locked.snapshots.runningHead = ref
            locked.snapshots.runningThreads &+= 1
        }
        staging.runReaction = ObjectIdentifier(reaction)
    }

    /// Ends the current run on `context`'s thread, its body returned: the thread's
    /// view goes back to the run this one nested in, if any, and the changes only this run
    /// held let go of their kept values.
    ///
    /// - Complexity: O(1); O(*k*) in the values kept when the run held changes.
    @inline(__always)
    func endSnapshot(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let staging = context.staging
        if !staging.heldChanges.isEmpty { releaseHeldChanges(staging, held) }
        if !staging.suspendedRuns.isEmpty {
            resumeOuterRun(staging, held)
        } else {
            staging.runReaction = nil
            let next = staging.nextRunning
            let previous = staging.previousRunning
            if let previous {
                previous.with { $0.nextRunning = next }
                staging.previousRunning = nil
            } else {
                locked.snapshots.runningHead = next
            }
            next?.with { $0.previousRunning = previous }
            staging.nextRunning = nil
            locked.snapshots.runningThreads &-= 1
        }
        if !staging.memo.isEmpty { forgetPrivateValues(staging, held) }
    }
}
