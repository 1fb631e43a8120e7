import Testing
@testable import Ripple

/// Direct tests of a subscriber's lifecycle (`_Lifecycle`): each transition and the action it
/// returns, the marks and the runaway count, then random sequences against a reference model
/// written with the flags the lifecycle used to be.
@Suite struct LifecycleTests {
    typealias Machine = _Lifecycle

    // MARK: The part every subscriber has (a watcher's too)

    @Test("a subscriber disposed with no queued job: not held; disposing again does nothing")
    func subscriberDisposedWithoutJobs() {
        var subscriber = Machine()
        #expect(subscriber.phase == .initial)
        #expect(!subscriber.isDisposed)
        let first = subscriber.cancel()
        #expect(first == .dispose(holdingForQueuedJobs: false))
        #expect(subscriber.phase == .disposed)
        #expect(subscriber.isDisposed)
        #expect(!subscriber.isHeldForJobs)
        let second = subscriber.cancel()
        #expect(second == .none)
        #expect(subscriber.phase == .disposed)
    }

    @Test("a live subscriber's jobs are counted, and finishing them asks for nothing")
    func subscriberJobsWhileLive() {
        var subscriber = Machine()
        subscriber.jobQueued()
        subscriber.jobQueued()
        #expect(subscriber.queuedJobs == 2)
        let first = subscriber.jobFinished()
        let second = subscriber.jobFinished()
        #expect(first == .none)
        #expect(second == .none)
        #expect(subscriber.queuedJobs == 0)
        #expect(!subscriber.isDisposed)
    }

    @Test("jobs still queued at disposal keep the node held until the last one finishes")
    func subscriberHeldForJobs() {
        var subscriber = Machine()
        subscriber.jobQueued()
        subscriber.jobQueued()
        let disposal = subscriber.cancel()
        #expect(disposal == .dispose(holdingForQueuedJobs: true))
        #expect(subscriber.isHeldForJobs)
        #expect(subscriber.isDisposed)
        // Disposing again takes no second reference.
        let again = subscriber.cancel()
        #expect(again == .none)
        let first = subscriber.jobFinished()
        #expect(first == .none)
        #expect(subscriber.isHeldForJobs)
        let last = subscriber.jobFinished()
        #expect(last == .releaseHold)
        #expect(!subscriber.isHeldForJobs)
        #expect(subscriber.isDisposed)
        #expect(subscriber.queuedJobs == 0)
    }

    // MARK: Marks

    @Test("a write marks a reaction once: one job until its sources are checked, then again")
    func markQueuesOnce() {
        var machine = idleMachine()
        #expect(!machine.isMarked)
        let first = machine.marked(bySelf: false)
        #expect(first == .queue)
        #expect(machine.isMarked)
        #expect(machine.queuedJobs == 1)
        let second = machine.marked(bySelf: false)
        #expect(second == .none)
        #expect(machine.queuedJobs == 1)
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .checkSources)
        #expect(machine.isMarked)
        let checked = machine.sourcesChecked(changed: false)
        #expect(checked == .none)
        #expect(!machine.isMarked)
        #expect(machine.jobFinished() == .none)
        let third = machine.marked(bySelf: false)
        #expect(third == .queue)
        #expect(machine.queuedJobs == 1)
    }

    @Test("a run's start clears the mark; a write during the run marks it for the rerun")
    func runClearsMark() {
        var machine = idleMachine()
        _ = machine.marked(bySelf: false)
        _ = machine.runRequested(canRunHere: true)
        let run = machine.sourcesChecked(changed: true)
        #expect(run == .run)
        #expect(!machine.isMarked)
        // A write made by the body: marked again, and its job asks for a rerun.
        let during = machine.marked(bySelf: true)
        #expect(during == .queue)
        #expect(machine.runRequested(canRunHere: true) == .none)
        #expect(machine.runFinished() == .checkSources)
        #expect(machine.isMarked)
        #expect(machine.sourcesChecked(changed: true) == .run)
        #expect(!machine.isMarked)
    }

    @Test("marks by the reaction's own writes are counted; another writer's mark resets the count")
    func selfTriggeredCount() {
        var machine = idleMachine()
        for expected in 1...3 {
            #expect(machine.marked(bySelf: true) == .queue)
            #expect(machine.selfTriggeredRuns == expected)
            _ = machine.sourcesChecked(changed: false)
        }
        #expect(machine.marked(bySelf: false) == .queue)
        #expect(machine.selfTriggeredRuns == 0)
        // A mark that finds it marked already counts nothing.
        _ = machine.sourcesChecked(changed: false)
        _ = machine.marked(bySelf: true)
        _ = machine.marked(bySelf: true)
        #expect(machine.selfTriggeredRuns == 1)
    }

    @Test("past maximumRounds marks by its own writes in a row, the lifecycle asks to stop the program")
    func runawayStops() {
        var machine = idleMachine()
        for _ in 0..<_Graph.maximumRounds {
            #expect(machine.marked(bySelf: true) == .queue)
            _ = machine.sourcesChecked(changed: false)
        }
        #expect(machine.selfTriggeredRuns == _Graph.maximumRounds)
        let before = machine
        #expect(machine.marked(bySelf: true) == .stopRunaway)
        #expect(machine == before)
    }

    @Test("the why-setting is kept across every transition")
    func recordsWhyKept() {
        var machine = Machine(recordsWhy: true)
        _ = machine.runRequested(canRunHere: true)
        _ = machine.marked(bySelf: false)
        _ = machine.runFinished()
        _ = machine.runRequested(canRunHere: false)
        _ = machine.cancel()
        #expect(machine.recordsWhy)
        #expect(machine.isDisposed)
        #expect(machine.isRunScheduled)
    }

    @Test("starting to record why changes no step of the lifecycle")
    func startRecordingWhy() {
        var machine = Machine()
        _ = machine.runRequested(canRunHere: true)
        _ = machine.marked(bySelf: false)
        let phase = machine.phase
        #expect(!machine.recordsWhy)
        machine.startRecordingWhy()
        #expect(machine.recordsWhy)
        #expect(machine.phase == phase)
        #expect(machine.isMarked)
        _ = machine.runFinished()
        #expect(machine.phase == .idle)
        #expect(machine.recordsWhy)
    }

    // MARK: Runs

    @Test("a new reaction runs at once when asked, and is idle after its run")
    func firstRun() {
        var machine = Machine()
        #expect(machine.phase == .initial)
        let action = machine.runRequested(canRunHere: true)
        #expect(action == .run)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: false))
        let finished = machine.runFinished()
        #expect(finished == .none)
        #expect(machine.phase == .idle)
    }

    @Test("an idle reaction asked to run checks its sources first, and runs only if one changed")
    func idleRunChecksSources() {
        var machine = idleMachine()
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .checkSources)
        #expect(machine.phase == .idle)
        let unchanged = machine.sourcesChecked(changed: false)
        #expect(unchanged == .none)
        #expect(machine.phase == .idle)
        let askedAgain = machine.runRequested(canRunHere: true)
        #expect(askedAgain == .checkSources)
        let changed = machine.sourcesChecked(changed: true)
        #expect(changed == .run)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: false))
    }

    @Test("a run asked for while running is noted, and happens at its end if a source changed")
    func rerunWhileRunning() {
        var machine = runningMachine()
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .none)
        #expect(machine.phase == .running(rerunRequested: true, cancelRequested: false))
        // Asked twice: one rerun.
        let askedAgain = machine.runRequested(canRunHere: true)
        #expect(askedAgain == .none)
        #expect(machine.phase == .running(rerunRequested: true, cancelRequested: false))
        let finished = machine.runFinished()
        #expect(finished == .checkSources)
        #expect(machine.phase == .idle)
        let rerun = machine.sourcesChecked(changed: true)
        #expect(rerun == .run)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: false))
        let finishedAgain = machine.runFinished()
        #expect(finishedAgain == .none)
        #expect(machine.phase == .idle)
    }

    @Test("a rerun asked for while running does not happen when no source changed")
    func rerunWithoutChange() {
        var machine = runningMachine()
        _ = machine.runRequested(canRunHere: true)
        let finished = machine.runFinished()
        #expect(finished == .checkSources)
        let rerun = machine.sourcesChecked(changed: false)
        #expect(rerun == .none)
        #expect(machine.phase == .idle)
    }

    @Test("a reaction whose first run was adopted waits for a change like one that ran")
    func adoptedFirstRun() {
        var machine = Machine()
        machine.firstRunAdopted()
        #expect(machine.phase == .idle)
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .checkSources)
    }

    // MARK: Cancel

    @Test("cancelling a reaction that never ran or is idle disposes of it at once")
    func cancelWhenNotRunning() {
        for var machine in [Machine(), idleMachine()] {
            let action = machine.cancel()
            #expect(action == .dispose(holdingForQueuedJobs: false))
            #expect(machine.phase == .disposed)
            #expect(machine.isDisposed)
            #expect(machine.isCancelled)
            #expect(!machine.isHeldForJobs)
            let again = machine.cancel()
            #expect(again == .none)
        }
    }

    @Test("a reaction cancelled by a derivation while its sources are checked does not run")
    func cancelDuringSourceCheck() {
        var machine = idleMachine()
        #expect(machine.runRequested(canRunHere: true) == .checkSources)
        // The check runs a derivation that cancels the reaction.
        #expect(machine.cancel() == .dispose(holdingForQueuedJobs: false))
        #expect(machine.sourcesChecked(changed: true) == .none)
        #expect(machine.phase == .disposed)
    }

    @Test("cancelling a running reaction is deferred to the end of its run, which disposes of it")
    func cancelWhileRunning() {
        var machine = runningMachine()
        let action = machine.cancel()
        #expect(action == .holdUntilRunEnds)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: true))
        #expect(!machine.isDisposed)
        #expect(!machine.isDisposed)
        #expect(machine.isCancelled)
        // A second cancel takes no second reference.
        let again = machine.cancel()
        #expect(again == .none)
        // A run asked for meanwhile never happens.
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .none)
        let finished = machine.runFinished()
        #expect(finished == .dispose(holdingForQueuedJobs: false))
        #expect(machine.phase == .disposed)
        #expect(machine.isDisposed)
        #expect(!machine.isHeldForJobs)
    }

    @Test("a reaction cancelled while running, with its job still queued, is held for the job")
    func cancelWhileRunningWithQueuedJob() {
        var machine = idleMachine()
        machine.jobQueued()
        _ = machine.runRequested(canRunHere: true)
        _ = machine.sourcesChecked(changed: true)
        let cancel = machine.cancel()
        #expect(cancel == .holdUntilRunEnds)
        let finished = machine.runFinished()
        #expect(finished == .dispose(holdingForQueuedJobs: true))
        #expect(machine.isHeldForJobs)
        let jobDone = machine.jobFinished()
        #expect(jobDone == .releaseHold)
        #expect(machine.isDisposed)
        #expect(!machine.isHeldForJobs)
    }

    @Test("jobs still queued when a reaction is cancelled keep it held until the last one finishes, and run nothing")
    func cancelWithQueuedJobs() {
        var machine = idleMachine()
        machine.jobQueued()
        machine.jobQueued()
        machine.jobQueued()
        let action = machine.cancel()
        #expect(action == .dispose(holdingForQueuedJobs: true))
        for remaining in (0..<3).reversed() {
            // Each job, delivered after the disposal, finds nothing to run.
            let asked = machine.runRequested(canRunHere: true)
            #expect(asked == .none)
            let done = machine.jobFinished()
            #expect(done == (remaining == 0 ? .releaseHold : .none))
            #expect(machine.queuedJobs == remaining)
        }
        #expect(machine.isDisposed)
        #expect(!machine.isHeldForJobs)
    }

    @Test("a disposed reaction neither runs nor sends a run")
    func disposedDoesNothing() {
        var machine = Machine()
        _ = machine.cancel()
        let here = machine.runRequested(canRunHere: true)
        let elsewhere = machine.runRequested(canRunHere: false)
        #expect(here == .none)
        #expect(elsewhere == .none)
        #expect(!machine.isRunScheduled)
        #expect(machine.phase == .disposed)
    }

    // MARK: Runs sent to an executor

    @Test("a run is sent to the executor once until it arrives, and runs there")
    func scheduledRun() {
        var machine = Machine()
        let sent = machine.runRequested(canRunHere: false)
        #expect(sent == .sendToExecutor)
        #expect(machine.isRunScheduled)
        #expect(machine.phase == .initial)
        let sentAgain = machine.runRequested(canRunHere: false)
        #expect(sentAgain == .none)
        let arrived = machine.scheduledRunArrived()
        #expect(arrived == .run)
        #expect(!machine.isRunScheduled)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: false))
        _ = machine.runFinished()
        // Once idle, a new run is sent; arriving, it checks the sources.
        let next = machine.runRequested(canRunHere: false)
        #expect(next == .sendToExecutor)
        let nextArrived = machine.scheduledRunArrived()
        #expect(nextArrived == .checkSources)
        #expect(!machine.isRunScheduled)
    }

    @Test("a run asked for from elsewhere while running on the executor is sent")
    func sendWhileRunning() {
        var machine = runningMachine()
        let sent = machine.runRequested(canRunHere: false)
        #expect(sent == .sendToExecutor)
        #expect(machine.isRunScheduled)
        #expect(machine.phase == .running(rerunRequested: false, cancelRequested: false))
        let finished = machine.runFinished()
        #expect(finished == .none)
        #expect(machine.isRunScheduled)
        let arrived = machine.scheduledRunArrived()
        #expect(arrived == .checkSources)
    }

    @Test("a main-actor reaction runs at once on the main thread while a run is on its way")
    func runHereWhileScheduled() {
        var machine = idleMachine()
        _ = machine.runRequested(canRunHere: false)
        let asked = machine.runRequested(canRunHere: true)
        #expect(asked == .checkSources)
        let run = machine.sourcesChecked(changed: true)
        #expect(run == .run)
        #expect(machine.isRunScheduled)
        _ = machine.runFinished()
        // The run sent earlier arrives and finds nothing changed.
        let arrived = machine.scheduledRunArrived()
        #expect(arrived == .checkSources)
        let unchanged = machine.sourcesChecked(changed: false)
        #expect(unchanged == .none)
        #expect(machine.phase == .idle)
    }

    @Test("cancelling a reaction whose run is on its way disposes of it at once; the run does nothing when it arrives")
    func cancelWhileScheduled() {
        var machine = idleMachine()
        let sent = machine.runRequested(canRunHere: false)
        #expect(sent == .sendToExecutor)
        let cancel = machine.cancel()
        #expect(cancel == .dispose(holdingForQueuedJobs: false))
        #expect(machine.phase == .disposed)
        #expect(machine.isRunScheduled)
        let arrived = machine.scheduledRunArrived()
        #expect(arrived == .none)
        #expect(!machine.isRunScheduled)
        #expect(machine.phase == .disposed)
    }

    @Test("the whole lifecycle is one word, no more than the fields it replaces used")
    func stateSize() {
        // It replaced a subscriber part (9 bytes) and a reaction's phase, flags and runaway
        // count in the padding after it: 16 bytes in all.
        #expect(MemoryLayout<Machine>.size == 8)
    }

    // MARK: Random sequences against the flags

    @Test("random sequences: the same actions and states as the flags it replaces", arguments: 0..<100)
    func randomSequences(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        var machine = Machine()
        var model = FlagModel()
        var seen: Set<Effect> = []
        for step in 0..<1_000 {
            // A reaction done with (disposed, nothing queued or on its way) makes room for a new one.
            if model.isDisposed, model.queuedJobs == 0, !model.isScheduled {
                machine = Machine()
                model = FlagModel()
            }
            let changed = Bool.random(using: &generator)
            let expected: Effect
            let actual: Effect
            switch Int.random(in: 0..<10, using: &generator) {
            case 0 where step == 0:
                model.adoptFirstRun()
                machine.firstRunAdopted()
                (expected, actual) = (.nothing, .nothing)
            case 0, 1:
                let canRunHere = Bool.random(using: &generator)
                expected = model.runRequested(canRunHere: canRunHere, changed: changed)
                actual = perform(machine.runRequested(canRunHere: canRunHere), on: &machine, changed: changed)
            case 2 where model.isScheduled:
                expected = model.scheduledRunArrived(changed: changed)
                actual = perform(machine.scheduledRunArrived(), on: &machine, changed: changed)
            case 3 where model.isRunning:
                expected = model.runFinished(changed: changed)
                actual = perform(machine.runFinished(), on: &machine, changed: changed)
            case 4 where Int.random(in: 0..<4, using: &generator) == 0:
                expected = model.cancel()
                actual = perform(machine.cancel())
            case 5 where !model.isDisposed:
                model.jobQueued()
                machine.jobQueued()
                (expected, actual) = (.nothing, .nothing)
            // Twice as likely as a mark, so that queues empty and disposals without a hold happen.
            case let choice where (choice == 6 || choice == 9) && model.queuedJobs > 0:
                expected = model.jobFinished()
                actual = machine.jobFinished() == .releaseHold ? .releaseHold : .nothing
            case 7 where !model.isDisposed:
                let bySelf = Bool.random(using: &generator)
                expected = model.marked(bySelf: bySelf)
                actual = machine.marked(bySelf: bySelf) == .queue ? .queue : .nothing
            default:
                continue
            }
            seen.insert(actual)
            #expect(actual == expected, "seed \(seed), step \(step)")
            expectSameState(machine, model, "seed \(seed), step \(step)")
        }
        // Every kind of action came up in the sequence.
        #expect(seen.count == 8, "seed \(seed): \(seen)")
    }

    // MARK: Helpers

    /// A reaction that has run once and is idle.
    private func idleMachine() -> Machine {
        var machine = Machine()
        _ = machine.runRequested(canRunHere: true)
        _ = machine.runFinished()
        return machine
    }

    /// A reaction in its first run.
    private func runningMachine() -> Machine {
        var machine = Machine()
        _ = machine.runRequested(canRunHere: true)
        return machine
    }

    /// What a step did, in terms both the machine and the model can say.
    enum Effect: Hashable {
        case nothing
        case run
        case send
        case holdUntilRunEnds
        case dispose(holdingForQueuedJobs: Bool)
        case releaseHold
        case queue
    }

    /// Follows a run action as the delivery loop does, answering a source check with `changed`.
    private func perform(_ action: Machine.RunAction, on machine: inout Machine, changed: Bool) -> Effect {
        switch action {
        case .none: .nothing
        case .checkSources: perform(machine.sourcesChecked(changed: changed), on: &machine, changed: changed)
        case .run: .run
        case .sendToExecutor: .send
        }
    }

    private func perform(_ action: Machine.RunFinishedAction, on machine: inout Machine, changed: Bool) -> Effect {
        switch action {
        case .none: .nothing
        case .checkSources: perform(machine.sourcesChecked(changed: changed), on: &machine, changed: changed)
        case .dispose(let holding): .dispose(holdingForQueuedJobs: holding)
        }
    }

    private func perform(_ action: Machine.CancelAction) -> Effect {
        switch action {
        case .none: .nothing
        case .holdUntilRunEnds: .holdUntilRunEnds
        case .dispose(let holding): .dispose(holdingForQueuedJobs: holding)
        }
    }

    private func expectSameState(_ machine: Machine, _ model: FlagModel, _ comment: Comment) {
        let expectedPhase: Machine.Phase =
            if model.isDisposed {
                .disposed
            } else if model.isRunning {
                .running(rerunRequested: model.rerunRequested, cancelRequested: model.cancelRequested)
            } else {
                model.hasRun ? .idle : .initial
            }
        #expect(machine.phase == expectedPhase, comment)
        #expect(machine.isRunScheduled == model.isScheduled, comment)
        #expect(machine.isDisposed == model.isDisposed, comment)
        #expect(machine.isCancelled == (model.isDisposed || model.cancelRequested), comment)
        #expect(machine.isDisposed == model.isDisposed, comment)
        #expect(machine.queuedJobs == model.queuedJobs, comment)
        #expect(machine.isHeldForJobs == model.isHeldForJobs, comment)
        #expect(machine.isMarked == model.isStale, comment)
        #expect(machine.selfTriggeredRuns == model.selfTriggeredRuns, comment)
    }
}

/// The reaction's lifecycle as it was written before the state machine: eight flags, with the
/// logic of `_ReactionNode.runLocked`, `runHereLocked`, `cancel` and
/// `_SubscriberNode.markDisposed` / `finishQueuedJob`. `changed` stands for "marked stale, and
/// a source's version moved".
private struct FlagModel {
    var isRunning = false
    var isScheduled = false
    var rerunRequested = false
    var cancelRequested = false
    var hasRun = false
    var isDisposed = false
    var isHeldForJobs = false
    var queuedJobs = 0
    var isStale = false
    var selfTriggeredRuns = 0

    typealias Effect = LifecycleTests.Effect

    mutating func adoptFirstRun() {
        hasRun = true
    }

    mutating func runRequested(canRunHere: Bool, changed: Bool) -> Effect {
        if canRunHere { return runHere(scheduled: false, changed: changed) }
        let send = !isDisposed && !isScheduled
        if send { isScheduled = true }
        return send ? .send : .nothing
    }

    mutating func scheduledRunArrived(changed: Bool) -> Effect {
        runHere(scheduled: true, changed: changed)
    }

    private mutating func runHere(scheduled: Bool, changed: Bool) -> Effect {
        if scheduled { isScheduled = false }
        if isDisposed { return .nothing }
        if isRunning {
            rerunRequested = true
            return .nothing
        }
        // Checked, or run: either way the sources are read again.
        isStale = false
        if hasRun, !changed { return .nothing }
        isRunning = true
        return .run
    }

    mutating func runFinished(changed: Bool) -> Effect {
        hasRun = true
        if !cancelRequested, rerunRequested {
            rerunRequested = false
            isStale = false
            if changed { return .run }
        }
        isRunning = false
        if cancelRequested { return .dispose(holdingForQueuedJobs: markDisposed()) }
        return .nothing
    }

    mutating func cancel() -> Effect {
        if isDisposed { return .nothing }
        if isRunning {
            if cancelRequested { return .nothing }
            cancelRequested = true
            return .holdUntilRunEnds
        }
        return .dispose(holdingForQueuedJobs: markDisposed())
    }

    mutating func jobQueued() {
        queuedJobs += 1
    }

    /// `_Graph.mark` as it was: the stale flag, the runaway count, then the queued job.
    mutating func marked(bySelf: Bool) -> Effect {
        if isStale { return .nothing }
        isStale = true
        selfTriggeredRuns = bySelf ? selfTriggeredRuns + 1 : 0
        queuedJobs += 1
        return .queue
    }

    mutating func jobFinished() -> Effect {
        queuedJobs -= 1
        guard queuedJobs == 0, isHeldForJobs else { return .nothing }
        isHeldForJobs = false
        return .releaseHold
    }

    private mutating func markDisposed() -> Bool {
        isDisposed = true
        if queuedJobs > 0, !isHeldForJobs {
            isHeldForJobs = true
            return true
        }
        return false
    }
}
