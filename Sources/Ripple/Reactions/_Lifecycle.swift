/// The lifecycle of a subscriber node, a reaction's or an Observation watcher's, in one word:
/// when it runs, whether it is marked and queued, whether a run is on its way to its executor,
/// its jobs in delivery queues, when it is disposed, and when it holds a reference to itself.
///
/// - `initial` → `running` when its first run is asked for;
/// - `idle` → `running` when a run is asked for and a source changed since the last run;
/// - `running` → `running` again at its end if a run was asked for meanwhile and a source
///   changed, else → `idle`;
/// - `initial`, `idle` → `disposed` on cancel; `running` → `disposed` at the end of the run
///   when it was cancelled meanwhile.
///
/// A watcher never runs: it is `initial` until its computed value goes, then `disposed`
/// (``cancel()``); it uses the job count and the hold for queued jobs.
///
/// A pure value: no lock, no user code, no graph. The node keeps it in one stored field under
/// the graph's lock (`_SubscriberNode.lifecycle`); each transition says what to do next, and
/// the node (or the delivery loop) does it, releasing the lock first whenever that calls user
/// code: the body, the teardown, the hop to an executor. Checking whether a source changed is
/// the graph's work (under the lock): a transition asks for it with
/// ``RunAction/checkSources``, and ``sourcesChecked(changed:)`` takes the answer.
///
/// **Marks.** A write that reaches a live reaction marks it (``marked(bySelf:)``): the first
/// mark queues a job, later ones do nothing until the mark is cleared, when a run starts or
/// its sources are checked. Marks made by the reaction's own body are counted: past
/// `_Graph.maximumRounds` in a row it is a runaway loop.
///
/// **Holds.** Queued jobs do not retain their node: while it is live its sources hold it. A
/// node disposed while jobs for it are queued holds a reference to itself until the last of
/// them is done (``CancelAction/dispose(holdingForQueuedJobs:)``, then
/// ``JobFinishedAction/releaseHold``), and a reaction cancelled while it runs holds one until
/// the run ends (``CancelAction/holdUntilRunEnds``). The node takes and gives back those
/// references in one place (`_SubscriberNode.holdSelf(_:)`, `releaseHeldSelf()`).
///
/// Whether a run was sent to the reaction's executor is kept apart from the phase: a
/// main-actor reaction runs at once when triggered on the main thread, even while a run sent
/// from another thread is on its way (that run then finds nothing changed).
struct _Lifecycle: Equatable {
    /// Where the reaction is in its life.
    enum Phase: Equatable {
        /// Created; its first run has not started (a watcher stays here until disposed).
        case initial
        /// Has run; waits for a source to change.
        case idle
        /// Its body is running (with the lock released). A run asked for meanwhile is noted
        /// (`rerunRequested`) and happens at the end of this one if a source changed; a cancel
        /// is noted (`cancelRequested`) and disposes of the reaction at the end, on the thread
        /// that runs it.
        case running(rerunRequested: Bool, cancelRequested: Bool)
        /// Cancelled: unlinked and torn down. It never runs again.
        case disposed
    }

    /// What to do after a write reached the reaction.
    enum MarkAction: Equatable {
        /// Nothing: it is marked already, and its job is queued.
        case none
        /// Queue a job for it (the job is counted already).
        case queue
        /// Stop the program: its own writes re-triggered it more than `_Graph.maximumRounds`
        /// times in a row.
        case stopRunaway
    }

    /// What to do after a run was asked for.
    enum RunAction: Equatable {
        /// Nothing: disposed, already running (a rerun is noted), or a run is already on its
        /// way to the executor.
        case none
        /// Check whether a source changed since the last run (lock held) if it is marked
        /// (``isMarked``), and report it with ``sourcesChecked(changed:)``.
        case checkSources
        /// The reaction is now running: run its body (with the lock released), then call
        /// ``runFinished()``.
        case run
        /// Send a run to the reaction's executor (with the lock released); it arrives as
        /// ``scheduledRunArrived()``.
        case sendToExecutor
    }

    /// What to do after a run of the body finished.
    enum RunFinishedAction: Equatable {
        /// Nothing: the reaction is idle.
        case none
        /// A run was asked for during this one: check whether a source changed (lock held), and
        /// report it with ``sourcesChecked(changed:)``.
        case checkSources
        /// It was cancelled during the run: dispose of it now (unlink it, take its teardown,
        /// and, when `holdingForQueuedJobs`, hold itself for its queued jobs), then, with the
        /// lock released, tear it down and release the hold ``cancel()`` took for the run.
        case dispose(holdingForQueuedJobs: Bool)
    }

    /// What to do after a cancel.
    enum CancelAction: Equatable {
        /// Nothing: already disposed, or already to be disposed at the end of its run.
        case none
        /// It is running: it is disposed when the run ends (``runFinished()`` says so). Hold
        /// itself now, before the lock is released: the caller may let go of its last
        /// reference, and the run may drop its last source.
        case holdUntilRunEnds
        /// Dispose of it now (unlink it, take its teardown, and, when `holdingForQueuedJobs`,
        /// hold itself for its queued jobs), then tear it down with the lock released.
        case dispose(holdingForQueuedJobs: Bool)
    }

    /// What to do once a queued job is done.
    enum JobFinishedAction: Equatable {
        /// Nothing.
        case none
        /// That was the last job of a disposed node: release the reference it held for its jobs,
        /// once the lock is released (releasing it may free the node and what it holds).
        case releaseHold
    }

    /// Every field, packed (see the masks below): one word, so that the node stores its whole
    /// lifecycle in one field and each transition is a few instructions on it.
    private var bits: UInt64

    // Bits 0–1: the phase's case; 2–3: its payload; then one flag each; 16–31: the runaway
    // count; 32–63: the queued jobs.
    private static let phaseMask: UInt64 = 0b11
    private static let initialCase: UInt64 = 0
    private static let idleCase: UInt64 = 1
    private static let runningCase: UInt64 = 2
    private static let disposedCase: UInt64 = 3
    private static let rerunRequestedBit: UInt64 = 1 << 2
    private static let cancelRequestedBit: UInt64 = 1 << 3
    private static let runScheduledBit: UInt64 = 1 << 4
    private static let heldForJobsBit: UInt64 = 1 << 5
    private static let markedBit: UInt64 = 1 << 6
    private static let recordsWhyBit: UInt64 = 1 << 7
    private static let selfTriggeredShift: UInt64 = 16
    private static let selfTriggeredMask: UInt64 = 0xFFFF << 16
    private static let jobsShift: UInt64 = 32
    private static let oneJob: UInt64 = 1 << 32

    /// A new subscriber: `initial`, live, nothing queued. `recordsWhy`: it keeps its sources'
    /// values at each run (see ``recordsWhy``).
    @inline(__always)
    init(recordsWhy: Bool = false) {
        bits = recordsWhy ? Self.recordsWhyBit : 0
    }

    // MARK: Reading the state

    /// Where the reaction is in its life.
    var phase: Phase {
        switch bits & Self.phaseMask {
        case Self.initialCase: .initial
        case Self.idleCase: .idle
        case Self.runningCase:
            .running(
                rerunRequested: bits & Self.rerunRequestedBit != 0,
                cancelRequested: bits & Self.cancelRequestedBit != 0)
        default: .disposed
        }
    }

    /// Disposed: it never runs again, and nothing reaches it.
    @inline(__always)
    var isDisposed: Bool { bits & Self.phaseMask == Self.disposedCase }

    /// Disposed, or to be disposed at the end of its run: it adopts no more children.
    var isCancelled: Bool { isDisposed || bits & Self.cancelRequestedBit != 0 }

    /// A run was sent to the reaction's executor and has not arrived yet: asking for another
    /// one sends nothing (the one on its way will see the change).
    var isRunScheduled: Bool { bits & Self.runScheduledBit != 0 }

    /// A write reached it since its sources were last checked: its job is queued (or running).
    @inline(__always)
    var isMarked: Bool { bits & Self.markedBit != 0 }

    /// Jobs for it in delivery queues, not yet done.
    var queuedJobs: Int { Int(truncatingIfNeeded: bits >> Self.jobsShift) }

    /// Disposed while jobs for it were queued: it holds a reference to itself until the last
    /// of them is done.
    var isHeldForJobs: Bool { bits & Self.heldForJobsBit != 0 }

    /// Consecutive marks made by its own body's writes (reset by a mark from anyone else).
    var selfTriggeredRuns: Int { Int(truncatingIfNeeded: (bits & Self.selfTriggeredMask) >> Self.selfTriggeredShift) }

    /// Keeps the values of its sources at each run, so that its next run can say which changed
    /// and how (`whyDidThisRun()`): named reactions, and any reaction once it asked. A setting,
    /// not a step of the lifecycle: decided at each run's start.
    var recordsWhy: Bool {
        @inline(__always) get { bits & Self.recordsWhyBit != 0 }
    }

    /// The body asked why it runs (`whyDidThisRun()`) and was not recording: from its next
    /// run's start on, it keeps its sources' values. Changes no step of the lifecycle.
    mutating func startRecordingWhy() {
        bits |= Self.recordsWhyBit
    }

    // MARK: Transitions

    /// A write reached the reaction (lock held). `bySelf`: its own body made the write (only
    /// asked when the mark is new).
    @inline(__always)
    mutating func marked(bySelf: @autoclosure () -> Bool) -> MarkAction {
        if bits & Self.markedBit != 0 { return .none }
        var next = (bits | Self.markedBit) &+ Self.oneJob
        if bySelf() {
            let runs = (bits & Self.selfTriggeredMask) >> Self.selfTriggeredShift &+ 1
            if runs > UInt64(_Graph.maximumRounds) { return .stopRunaway }
            next = next & ~Self.selfTriggeredMask | runs << Self.selfTriggeredShift
        } else {
            next &= ~Self.selfTriggeredMask
        }
        bits = next
        return .queue
    }

    /// A job for the subscriber was queued without a mark (a watcher's). Only a live subscriber
    /// gets jobs: disposal unlinks it from its sources under the same lock.
    @inline(__always)
    mutating func jobQueued() {
        bits &+= Self.oneJob
    }

    /// A queued job for the subscriber is done (the job ran, or found nothing to do).
    @inline(__always)
    mutating func jobFinished() -> JobFinishedAction {
        bits &-= Self.oneJob
        guard bits >> Self.jobsShift == 0, bits & Self.heldForJobsBit != 0 else { return .none }
        bits &= ~Self.heldForJobsBit
        return .releaseHold
    }

    /// A run was asked for: a job for it was delivered, or it was just created.
    /// `canRunHere` says whether the calling thread may run its body: always for a reaction
    /// bound to no executor, and for a main-actor reaction on the main thread.
    @inline(__always)
    mutating func runRequested(canRunHere: Bool) -> RunAction {
        if !canRunHere { return sendRequested() }
        switch bits & Self.phaseMask {
        case Self.initialCase:
            startRunning()
            return .run
        case Self.idleCase:
            return .checkSources
        case Self.runningCase:
            bits |= Self.rerunRequestedBit
            return .none
        default:
            return .none
        }
    }

    /// A run for another thread's executor was asked for: sent, unless one is on its way.
    private mutating func sendRequested() -> RunAction {
        if isDisposed || isRunScheduled { return .none }
        bits |= Self.runScheduledBit
        return .sendToExecutor
    }

    /// The run sent to the executor arrived, on the executor: a run asked for there.
    mutating func scheduledRunArrived() -> RunAction {
        bits &= ~Self.runScheduledBit
        return runRequested(canRunHere: true)
    }

    /// The answer to ``RunAction/checkSources`` or ``RunFinishedAction/checkSources`` (the
    /// lock held since): whether a source changed since the last run. Clears the mark: the
    /// next write queues a job again.
    ///
    /// The check runs derivations, which may cancel the reaction being checked (directly, or
    /// through another reaction's teardown or cleanup): it is then disposed, and does not run.
    @inline(__always)
    mutating func sourcesChecked(changed: Bool) -> RunAction {
        bits &= ~Self.markedBit
        let phase = bits & Self.phaseMask
        if phase == Self.disposedCase { return .none }
        guard phase == Self.idleCase else { Self.invalidTransition("sources checked", self.phase) }
        guard changed else { return .none }
        startRunning()
        return .run
    }

    /// A run of the body ended (the lock taken again).
    @inline(__always)
    mutating func runFinished() -> RunFinishedAction {
        guard bits & Self.phaseMask == Self.runningCase else { Self.invalidTransition("run finished", phase) }
        let rerunRequested = bits & Self.rerunRequestedBit != 0
        if bits & Self.cancelRequestedBit != 0 { return .dispose(holdingForQueuedJobs: dispose()) }
        setPhase(Self.idleCase)
        return rerunRequested ? .checkSources : .none
    }

    /// The subscriber was cancelled (a reaction), or its computed value went (a watcher).
    mutating func cancel() -> CancelAction {
        switch bits & Self.phaseMask {
        case Self.initialCase, Self.idleCase:
            return .dispose(holdingForQueuedJobs: dispose())
        case Self.runningCase where bits & Self.cancelRequestedBit == 0:
            bits |= Self.cancelRequestedBit
            return .holdUntilRunEnds
        default:
            return .none
        }
    }

    /// Another thread's read was taken as the reaction's first run (see
    /// `_ReactionNode.adoptFirstRun(readOf:)`): it waits for that source to change.
    mutating func firstRunAdopted() {
        guard bits & Self.phaseMask == Self.initialCase else { Self.invalidTransition("first run adopted", phase) }
        setPhase(Self.idleCase)
    }

    // MARK: Helpers

    /// Enters `running` with nothing noted, and clears the mark: the run reads the sources.
    @inline(__always)
    private mutating func startRunning() {
        bits =
            bits & ~(Self.phaseMask | Self.markedBit | Self.rerunRequestedBit | Self.cancelRequestedBit)
            | Self.runningCase
    }

    /// Sets the phase's case, clearing its payload.
    @inline(__always)
    private mutating func setPhase(_ phaseCase: UInt64) {
        bits = bits & ~(Self.phaseMask | Self.rerunRequestedBit | Self.cancelRequestedBit) | phaseCase
    }

    /// Moves to `disposed`: whether the node must hold itself for its queued jobs.
    private mutating func dispose() -> Bool {
        setPhase(Self.disposedCase)
        guard bits >> Self.jobsShift > 0 else { return false }
        bits |= Self.heldForJobsBit
        return true
    }

    /// Stops the program: `transition` cannot happen in `phase` (a bug in Ripple). Out of line,
    /// so that the message's formatting stays off the transitions' code.
    @inline(never)
    private static func invalidTransition(_ transition: String, _ phase: Phase) -> Never {
        _rippleFailure("internal error: \(transition) for a reaction in phase \(phase)")
    }
}
