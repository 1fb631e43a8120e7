/// The lifecycle every subscriber has, a reaction's and an Observation watcher's alike: live
/// until disposed, and the jobs for it in delivery queues that are not done yet.
///
/// Queued jobs do not retain their node (see `_Job`): while it is live its sources hold it, and
/// a node disposed while jobs for it are queued holds a reference to itself until the last of
/// them is done. This machine says when to take and when to drop that reference.
///
/// A pure value, like `_ReactionStateMachine`: no lock, no user code, no graph. Its node keeps
/// it under the graph's lock (`_SubscriberNode.subscriber`) and performs what the transitions
/// return.
struct _SubscriberStateMachine: Equatable {
    /// Whether the subscriber is live, and whether it holds itself for its queued jobs.
    enum Phase: UInt8 {
        /// Linked to its sources: writes reach it.
        case live
        /// Disposed while jobs for it were queued: it holds a reference to itself until the
        /// last of them is done.
        case disposedHeldForJobs
        /// Disposed, and not held for jobs.
        case disposed
    }

    /// What to do once the subscriber is marked disposed.
    enum DisposeAction: Equatable {
        /// Nothing.
        case none
        /// Jobs for it are still queued: retain the node now, before the lock is released (a
        /// retain runs no user code); the last job's ``JobFinishedAction/releaseHold`` gives the
        /// reference back.
        case holdForQueuedJobs
    }

    /// What to do once a queued job is done.
    enum JobFinishedAction: Equatable {
        /// Nothing.
        case none
        /// That was the last job of a disposed node: release the reference it held for its jobs,
        /// once the lock is released (releasing it may free the node and what it holds).
        case releaseHold
    }

    // Declared in this order so that the struct is 9 bytes: a reaction's run state and flags
    // follow it in the same word (see `_ReactionNode`).

    /// Jobs for this subscriber in delivery queues, not yet done.
    private(set) var queuedJobs = 0
    /// Live, or disposed (and whether held for jobs).
    private(set) var phase = Phase.live

    /// Cancelled and unlinked from its sources: nothing reaches it any more.
    @inline(__always)
    var isDisposed: Bool { phase != .live }

    /// A job for the subscriber was queued. Only a live subscriber gets jobs: disposal unlinks
    /// it from its sources under the same lock.
    @inline(__always)
    mutating func jobQueued() {
        queuedJobs &+= 1
    }

    /// A queued job for the subscriber is done (the job ran, or found nothing to do).
    @inline(__always)
    mutating func jobFinished() -> JobFinishedAction {
        queuedJobs &-= 1
        guard queuedJobs == 0, phase == .disposedHeldForJobs else { return .none }
        phase = .disposed
        return .releaseHold
    }

    /// The subscriber is disposed. Disposing it again does nothing.
    mutating func dispose() -> DisposeAction {
        guard phase == .live else { return .none }
        if queuedJobs > 0 {
            phase = .disposedHeldForJobs
            return .holdForQueuedJobs
        }
        phase = .disposed
        return .none
    }
}

/// A reaction's lifecycle (see `_ReactionNode`): when it runs, whether a run is on its way to
/// its executor, and when it is disposed.
///
/// - `initial` → `running` when its first run is asked for;
/// - `idle` → `running` when a run is asked for and a source changed since the last run;
/// - `running` → `running` again at its end if a run was asked for meanwhile and a source
///   changed, else → `idle`;
/// - `initial`, `idle` → `disposed` on cancel; `running` → `disposed` at the end of the run
///   when it was cancelled meanwhile.
///
/// A pure value: no lock, no user code, no graph. The node keeps it under the graph's lock;
/// each transition says what to do next, and the node (or the delivery loop) does it,
/// releasing the lock first whenever that calls user code: the body, the teardown, the hop to
/// an executor. Checking whether a source changed is the graph's work (under the lock): a
/// transition asks for it with ``RunAction/checkSources``, and ``sourcesChecked(changed:)``
/// takes the answer.
///
/// Whether a run was sent to the reaction's executor is kept apart from the phase: a
/// main-actor reaction runs at once when triggered on the main thread, even while a run sent
/// from another thread is on its way (that run then finds nothing changed).
///
/// `subscriber` is the part a watcher has too (disposal and queued jobs); it is disposed when
/// the phase becomes `disposed`, never otherwise.
struct _ReactionStateMachine: Equatable {
    /// Where the reaction is in its life.
    enum Phase: Equatable {
        /// Created; its first run has not started.
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

    /// What to do after a run was asked for.
    enum RunAction: Equatable {
        /// Nothing: disposed, already running (a rerun is noted), or a run is already on its
        /// way to the executor.
        case none
        /// Check whether a source changed since the last run (lock held), and report it with
        /// ``sourcesChecked(changed:)``.
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
        /// and, when `holdingForQueuedJobs`, retain it for its queued jobs), then, with the lock
        /// released, tear it down and release the reference ``cancel()`` took for the run.
        case dispose(holdingForQueuedJobs: Bool)
    }

    /// What to do after a cancel.
    enum CancelAction: Equatable {
        /// Nothing: already disposed, or already to be disposed at the end of its run.
        case none
        /// It is running: it is disposed when the run ends (``runFinished()`` says so). Retain
        /// it now, before the lock is released: the caller may let go of its last reference,
        /// and the run may drop its last source.
        case holdUntilRunEnds
        /// Dispose of it now (unlink it, take its teardown, and, when `holdingForQueuedJobs`,
        /// retain it for its queued jobs), then tear it down with the lock released.
        case dispose(holdingForQueuedJobs: Bool)
    }

    /// Where the reaction is in its life.
    private(set) var phase: Phase
    /// A run was sent to the reaction's executor and has not arrived yet: asking for another
    /// one sends nothing (the one on its way will see the change).
    private(set) var isRunScheduled: Bool
    /// Disposal and queued jobs, the part every subscriber has.
    var subscriber: _SubscriberStateMachine

    /// A new reaction, or the state a node keeps (see `_ReactionNode.state`).
    @inline(__always)
    init(
        phase: Phase = .initial, isRunScheduled: Bool = false,
        subscriber: _SubscriberStateMachine = _SubscriberStateMachine()
    ) {
        self.phase = phase
        self.isRunScheduled = isRunScheduled
        self.subscriber = subscriber
    }

    /// Disposed: it never runs again.
    @inline(__always)
    var isDisposed: Bool { phase == .disposed }

    /// Disposed, or to be disposed at the end of its run: it adopts no more children.
    var isCancelled: Bool {
        switch phase {
        case .disposed, .running(rerunRequested: _, cancelRequested: true): true
        case .initial, .idle, .running: false
        }
    }

    /// A run was asked for: a job for it was delivered, or it was just created.
    /// `canRunHere` says whether the calling thread may run its body: always for a reaction
    /// bound to no executor, and for a main-actor reaction on the main thread.
    @inline(__always)
    mutating func runRequested(canRunHere: Bool) -> RunAction {
        if !canRunHere { return sendRequested() }
        switch phase {
        case .initial:
            phase = .running(rerunRequested: false, cancelRequested: false)
            return .run
        case .idle:
            return .checkSources
        case .running(_, let cancelRequested):
            phase = .running(rerunRequested: true, cancelRequested: cancelRequested)
            return .none
        case .disposed:
            return .none
        }
    }

    /// A run for another thread's executor was asked for: sent, unless one is on its way.
    private mutating func sendRequested() -> RunAction {
        if isDisposed || isRunScheduled { return .none }
        isRunScheduled = true
        return .sendToExecutor
    }

    /// The run sent to the executor arrived, on the executor: a run asked for there.
    mutating func scheduledRunArrived() -> RunAction {
        isRunScheduled = false
        return runRequested(canRunHere: true)
    }

    /// The answer to ``RunAction/checkSources`` or ``RunFinishedAction/checkSources`` (the
    /// lock held since): whether a source changed since the last run.
    ///
    /// The check runs derivations, which may cancel the reaction being checked (directly, or
    /// through another reaction's teardown or cleanup): it is then disposed, and does not run.
    mutating func sourcesChecked(changed: Bool) -> RunAction {
        if phase == .disposed { return .none }
        guard phase == .idle else { Self.invalidTransition("sources checked", phase) }
        guard changed else { return .none }
        phase = .running(rerunRequested: false, cancelRequested: false)
        return .run
    }

    /// A run of the body ended (the lock taken again).
    mutating func runFinished() -> RunFinishedAction {
        guard case .running(let rerunRequested, let cancelRequested) = phase else {
            Self.invalidTransition("run finished", phase)
        }
        if cancelRequested { return .dispose(holdingForQueuedJobs: dispose()) }
        phase = .idle
        return rerunRequested ? .checkSources : .none
    }

    /// The reaction was cancelled.
    mutating func cancel() -> CancelAction {
        switch phase {
        case .initial, .idle:
            return .dispose(holdingForQueuedJobs: dispose())
        case .running(let rerunRequested, cancelRequested: false):
            phase = .running(rerunRequested: rerunRequested, cancelRequested: true)
            return .holdUntilRunEnds
        case .running(rerunRequested: _, cancelRequested: true), .disposed:
            return .none
        }
    }

    /// Another thread's read was taken as the reaction's first run (see
    /// `_ReactionNode.adoptFirstRun(readOf:)`): it waits for that source to change.
    mutating func firstRunAdopted() {
        guard phase == .initial else { Self.invalidTransition("first run adopted", phase) }
        phase = .idle
    }

    /// A job for the reaction was queued.
    @inline(__always)
    mutating func jobQueued() {
        subscriber.jobQueued()
    }

    /// A queued job for the reaction is done.
    @inline(__always)
    mutating func jobFinished() -> _SubscriberStateMachine.JobFinishedAction {
        subscriber.jobFinished()
    }

    /// Stops the program: `transition` cannot happen in `phase` (a bug in Ripple). Out of line,
    /// so that the message's formatting stays off the transitions' code.
    @inline(never)
    private static func invalidTransition(_ transition: String, _ phase: Phase) -> Never {
        _rippleFailure("internal error: \(transition) for a reaction in phase \(phase)")
    }

    /// Moves to `disposed`, and disposes of the subscriber part: whether the node must hold
    /// itself for its queued jobs.
    private mutating func dispose() -> Bool {
        phase = .disposed
        return subscriber.dispose() == .holdForQueuedJobs
    }
}
