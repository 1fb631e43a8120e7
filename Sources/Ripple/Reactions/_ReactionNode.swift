import _RippleRef

/// The graph node behind a reaction (``observe(file:line:_:)`` and everything built on it).
///
/// Its lifecycle is a `_Lifecycle` (`lifecycle`, one field), under the graph's lock: each step
/// below asks it what to do, and the steps that call user code (the body, the teardown, the
/// hop to an executor) run with the lock released. The delivery loop drives a run
/// (`_Graph.runReaction`, `_Graph.perform`), and the steps of a run are beside it, in
/// `_Graph+Delivery.swift`: every method is called either with the lock held, and returns with
/// it held without ever releasing it, or with the lock released.
///
/// Teardown (before each re-run, and on disposal) cancels the children last created first,
/// then runs the cleanups last registered first, detached from whatever runs on the thread
/// (see `_tearDown`).
///
/// Not `final` for one subclass, `_ContextReactionNode` (a reaction whose subscription carries
/// a module's context, see `Subscription._context`), which overrides nothing: optimized
/// builds see the whole module and still call every method directly.
class _ReactionNode: _SubscriberNode, _Owner, @unchecked Sendable {
    /// Bound to the main actor: a run triggered on the main thread runs there at once, in
    /// its round, instead of being sent to the executor (see `runRequested(_:_:)`).
    let runsOnMainActor: Bool
    /// Bound to an executor (`schedule` in `extras`): a run is sent there unless it may run
    /// where it was triggered. In the padding after the flag above.
    let isBoundToExecutor: Bool
    /// The user's reaction, run with the lock released.
    let body: @Sendable () -> Void
    /// What most reactions never need (an executor, cleanups, children): created with the
    /// reaction if it is bound to an executor, else by its first cleanup or child (lock held).
    private(set) var extras: _ReactionExtras?

    /// A reaction that has not run yet. `schedule` sends a run to the reaction's executor (nil:
    /// it runs on the thread that triggers it); `runsOnMainActor`: that executor is the main
    /// actor's. A named reaction records why it runs (``whyDidThisRun()``), unless
    /// `recordsWhy` says otherwise (Ripple's own reactions, whose bodies never ask).
    init(
        origin: _Origin,
        schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        runsOnMainActor: Bool = false,
        recordsWhy: Bool? = nil,
        body: @escaping @Sendable () -> Void
    ) {
        self.body = body
        extras = schedule.map { _ReactionExtras(schedule: $0) }
        isBoundToExecutor = schedule != nil
        self.runsOnMainActor = runsOnMainActor
        super.init(kind: .reaction, origin: origin, recordsWhy: recordsWhy ?? origin.hasName)
    }

    /// Makes this new reaction a watcher of `source`, as if its first run had read it (lock
    /// held): it is live from now on, and its next run happens when `source` changes. Used for
    /// a reaction whose first read was made by someone else, under the same lock acquisition.
    func adoptFirstRun(readOf source: _Node, _ held: borrowing _HeldLock) {
        held[sources: self].append(_Edge(retaining: source, version: held[version: source]))
        held[sources: self][0].slot = graphRef.object.subscribe(self, to: source, held)
        held[lifecycle: self].firstRunAdopted()
    }

    /// Runs the reaction on this thread if a source changed since its last run (or it never
    /// ran); a reaction bound to an executor is sent there instead. Called with the lock
    /// released.
    func run(_ context: _ThreadContext) {
        graphRef.with { $0.runReaction(self, context) }
    }

    // MARK: Disposal and the executor hop (the steps of a run are in `_Graph+Delivery.swift`)

    /// Disposes of the reaction (the lifecycle already in `disposed`): unlinks it
    /// from its sources and takes what must be finished with the lock released (`finish`).
    /// `holdingForQueuedJobs`: holds itself for its queued jobs (see `_Lifecycle`).
    /// `releasingRunHold`: `finish` releases the hold `cancel()` took for the run.
    func dispose(
        _ graph: _Graph, holdingForQueuedJobs: Bool, releasingRunHold: Bool, _ held: borrowing _HeldLock
    ) -> _ReactionDisposal {
        if holdingForQueuedJobs { holdSelf(held) }
        // Only a reaction that records why it runs keeps anything past the end of its run.
        if held[lifecycle: self].recordsWhy { forgetWhy(graph, held) }
        return _ReactionDisposal(
            teardown: extras?.takeTeardown(),
            sources: graph.disposeSources(of: self, held),
            insideDerivation: graph.state(held).evaluatingRef != nil,
            releasesRunHold: releasingRunHold
        )
    }

    /// Sends a run to the reaction's executor (lock released). The job holds the node until it
    /// has run; it runs as a delivery of its own there.
    func sendToExecutor() {
        guard let schedule = extras?.schedule else {
            _rippleFailure("internal error: \(debugLabel) sent to an executor it does not have")
        }
        schedule { [self] in
            let context = _ThreadContext.current
            _graph.delivering(context) { _graph.runReaction(self, context, scheduledRunArrived: true) }
        }
    }

    /// Finishes a disposal with the lock released: tears the reaction down, lets go of its
    /// sources, and releases the reference `cancel()` took for the run if it was running. That
    /// reference is never the last one: a queued job's hold (`_Lifecycle`), the
    /// caller of a first run, or an executor's job still holds the node.
    func finish(_ disposal: consuming _ReactionDisposal) {
        disposal.teardown?.run(insideDerivation: disposal.insideDerivation)
        _releaseLater(disposal.sources.take())
        if disposal.releasesRunHold { releaseHeldSelf() }
    }

    // MARK: Entry points (lock released)

    /// Cancels the reaction: unlinks it, then cancels its children and runs its cleanups
    /// (see `_tearDown`). If it is running (on another thread, or this is its own body),
    /// that happens when the run ends, on the thread that runs it.
    func cancel() {
        graphRef.with { graph in
            let held = graph.takeLock()
            switch held[lifecycle: self].cancel() {
            case .none:
                held.release(graph)
            case .holdUntilRunEnds:
                // The subscription lets go of the node once this returns, and the run may drop
                // the node's last source: the node holds itself until the run ends.
                holdSelf(held)
                held.release(graph)
            case .dispose(let holdingForQueuedJobs):
                let disposal = dispose(
                    graph, holdingForQueuedJobs: holdingForQueuedJobs, releasingRunHold: false, held)
                held.release(graph)
                finish(disposal)
            }
        }
    }

    /// Registers a cleanup for the current run; returns false if the reaction is already disposed.
    func _addCleanup(_ cleanup: @escaping @Sendable () -> Void) -> Bool {
        _graph.withLock { held in
            if held[isDisposed: self] { return false }
            teardownExtras(held).add(cleanup)
            return true
        }
    }

    /// Adopts a reaction created during a run; returns false if this one is cancelled (or
    /// will be at the end of its run): the child then never starts.
    func _adopt(_ child: Subscription) -> Bool {
        _graph.withLock { held in
            if held[lifecycle: self].isCancelled { return false }
            teardownExtras(held).add(child)
            return true
        }
    }
}

extension _ReactionNode {
    /// The extras, created for a first cleanup or child.
    private func teardownExtras(_ held: borrowing _HeldLock) -> _ReactionExtras {
        if let extras { return extras }
        let created = _ReactionExtras(schedule: nil)
        extras = created
        return created
    }
}

/// The parts of a reaction that most reactions never use, kept apart so that a plain reaction
/// stays small (see `_ReactionNode.extras`). Every `var` is guarded by the graph's lock.
///
/// No access to a field spans a call (an `append` on the field, a `swap`): the optimizer then
/// proves that no two accesses overlap and drops their run-time exclusivity checks, which cost
/// about 150 instructions on every run of a reaction that has extras (every main-actor one).
final class _ReactionExtras: @unchecked Sendable {
    /// For a reaction bound to an actor: sends a run to the actor's executor.
    let schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    /// The cleanups the current run registered (`onCleanup`), run at its teardown.
    private var cleanups: [@Sendable () -> Void] = []
    /// The reactions the current run created, cancelled at its teardown.
    private var children: [Subscription] = []

    init(schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)?) {
        self.schedule = schedule
    }

    /// Registers a cleanup of the current run.
    func add(_ cleanup: @escaping @Sendable () -> Void) {
        var taken = cleanups
        cleanups = []
        taken.append(cleanup)
        cleanups = taken
    }

    /// Registers a reaction the current run created.
    func add(_ child: Subscription) {
        var taken = children
        children = []
        taken.append(child)
        children = taken
    }

    /// Takes the current run's cleanups and children, for a teardown: the next run starts with
    /// none. `nil` when the run registered neither (most runs).
    func takeTeardown() -> _ReactionTeardown? {
        let cleanups = cleanups
        let children = children
        if cleanups.isEmpty, children.isEmpty { return nil }
        self.cleanups = []
        self.children = []
        return _ReactionTeardown(cleanups: cleanups, children: children)
    }
}

/// A run of a reaction's body in progress: taken under the lock when it starts
/// (`_ReactionNode.beginRun`), used with the lock released, and ended under the lock.
struct _ReactionRun: ~Copyable {
    /// The previous run's cleanups and children, torn down before the body; `nil` when it left
    /// none (most runs).
    var teardown: _ReactionTeardown?
    /// Whether a derivation is being evaluated on the running thread (see `_runDetached`).
    let insideDerivation: Bool
    /// Whether the run is recorded, for tracers or for `whyDidThisRun`.
    let records: Bool
    /// Whether the run keeps its sources' values (see `recordsWhy`).
    let keepsValues: Bool

    /// A run with nothing to tear down yet.
    init(insideDerivation: Bool, records: Bool, keepsValues: Bool) {
        self.insideDerivation = insideDerivation
        self.records = records
        self.keepsValues = keepsValues
    }
}

/// A run's cleanups and children, torn down before the next run (`_ReactionRun.teardown`) or at
/// the disposal (`_ReactionDisposal.teardown`).
struct _ReactionTeardown {
    /// The cleanups, run after the children are cancelled.
    var cleanups: [@Sendable () -> Void] = []
    /// The children, cancelled first.
    var children: [Subscription] = []

    /// Cancels the children, then runs the cleanups (lock released; see `_tearDown`).
    consuming func run(insideDerivation: Bool) {
        var children = children
        _tearDown(children: &children, cleanups: &cleanups, insideDerivation: insideDerivation)
    }
}

/// What a reaction's disposal hands over to be finished with the lock released
/// (`_ReactionNode.finish`).
struct _ReactionDisposal: ~Copyable {
    /// The last run's cleanups and children; `nil` when it left none.
    var teardown: _ReactionTeardown?
    /// The edges to the sources it was unlinked from; their references are released last.
    var sources: _Buffer<_Edge>
    /// Whether a derivation is being evaluated on the disposing thread.
    var insideDerivation: Bool
    /// Whether the reaction was disposed at the end of its run: the reference `cancel()` took
    /// for the run is released last.
    var releasesRunHold: Bool
}
