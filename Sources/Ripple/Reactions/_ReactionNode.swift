/// The graph node behind a reaction (``observe(file:line:_:)`` and everything built on it).
///
/// State machine, all under the graph's lock:
/// - idle → running when `run` finds a source changed (or on the first run);
/// - running → running again when a write from another thread asked for a re-run;
/// - any → disposed on cancel (deferred to the end of the run when running).
/// The body, cleanups and child cancellations are always called with the lock released.
///
/// Teardown (before each re-run, and on disposal) cancels the children last created first,
/// then runs the cleanups last registered first, detached from whatever runs on the thread
/// (see `_tearDown`).
final class _ReactionNode: _SubscriberNode, _Owner, @unchecked Sendable {
    private let body: @Sendable () -> Void
    /// For reactions bound to an actor: sends a run to the actor's executor.
    private let schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    @exclusivity(unchecked) private var isRunning = false
    @exclusivity(unchecked) private var isScheduled = false
    @exclusivity(unchecked) private var rerunRequested = false
    @exclusivity(unchecked) private var cancelRequested = false
    @exclusivity(unchecked) private(set) var hasRun = false
    /// Bound to the main actor: a run triggered on the main thread runs there at once, in
    /// its round, instead of being sent to the executor (see `runScheduledLocked`). Next to
    /// the flags above, in their padding.
    private let runsOnMainActor: Bool
    /// Keeps the values of its sources at each run, so that its next run can say which
    /// changed and how (see `whyDidThisRun()`): named reactions, and any reaction once it
    /// asked. In the padding too.
    @exclusivity(unchecked) var recordsWhy: Bool
    /// Consecutive runs this reaction triggered itself: each marked stale by a write its own
    /// body queued (lock held; counted and reset in `_Graph.mark`). Past `_Graph.maximumRounds`
    /// it is a runaway loop. One delivery bounds such a loop by its rounds; this bounds it across
    /// executor hops too (`observe(on:)`), where every run starts a delivery of its own.
    @exclusivity(unchecked) var selfTriggeredRuns = 0
    @exclusivity(unchecked) private var cleanups: [@Sendable () -> Void] = []
    @exclusivity(unchecked) private var children: [Subscription] = []

    init(
        origin: _Origin,
        schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        runsOnMainActor: Bool = false,
        body: @escaping @Sendable () -> Void
    ) {
        self.body = body
        self.schedule = schedule
        self.runsOnMainActor = runsOnMainActor
        recordsWhy = origin.name != nil
        super.init(kind: .reaction, origin: origin)
    }

    /// Makes this new reaction a watcher of `source`, as if its first run had read it (lock
    /// held): it is live from now on, and its next run happens when `source` changes. Used for
    /// a reaction whose first read was made by someone else, under the same lock acquisition.
    func adoptFirstRun(readOf source: _Node) {
        sources.append(_Edge(retaining: source, version: source.version))
        sources[0].slot = graphRef.takeUnretainedValue().subscribe(self, to: source)
        hasRun = true
    }

    /// Runs the reaction on this thread if a source changed since its last run (or it never ran).
    /// Reactions bound to an executor are sent there instead. Called with the lock released.
    func run(_ context: _ThreadContext) {
        graphRef._withUnsafeGuaranteedRef { graph in
            graph.lock.lock()
            runLocked(graph, context)
            graph.unlock()
        }
    }

    /// ``run(_:)`` for a caller that holds the lock: returns with it held, and releases it
    /// around everything that calls user code (the body, cleanups, the executor hop).
    func runLocked(_ graph: _Graph, _ context: _ThreadContext) {
        guard let schedule else {
            runHereLocked(graph, context, scheduled: false)
            return
        }
        runScheduledLocked(graph, context, schedule)
    }

    /// ``runLocked(_:_:)`` for a reaction bound to an executor (lock held). On the main thread
    /// a main-actor run happens at once, in this round, like any reaction's: the main actor's
    /// work is serialized with whatever runs on that thread, and a run already sent finds
    /// nothing stale when it arrives, and does nothing. Otherwise the run is sent.
    @inline(never)
    private func runScheduledLocked(
        _ graph: _Graph,
        _ context: _ThreadContext,
        _ schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        if runsOnMainActor, graph.isOnMainThread() {
            runHereLocked(graph, context, scheduled: false)
            return
        }
        let send = !isDisposed && !isScheduled
        if send { isScheduled = true }
        guard send else { return }
        graph.unlock()
        schedule { [self] in
            let context = _ThreadContext.current
            _graph.delivering(context) {
                _graph.lock.lock()
                self.runHereLocked(_graph, context, scheduled: true)
                _graph.unlock()
            }
        }
        graph.lock.lock()
    }

    private func runHereLocked(_ graph: _Graph, _ context: _ThreadContext, scheduled: Bool) {
        if scheduled { isScheduled = false }
        if isDisposed { return }
        if isRunning {
            rerunRequested = true
            return
        }
        if hasRun {
            if !isStale { return }
            let changed = graph.sourcesChanged(self)
            isStale = false
            if !changed { return }
        }
        isRunning = true
        while true {
            isStale = false
            var cleanups: [@Sendable () -> Void] = []
            var children: [Subscription] = []
            if !self.cleanups.isEmpty { swap(&cleanups, &self.cleanups) }
            if !self.children.isEmpty { swap(&children, &self.children) }
            let insideDerivation = graph.evaluatingRef != nil
            // Whether this run keeps its sources' values is decided at its start: a reaction that
            // first asks why during a run starts keeping them at its next run.
            let keepsValues = recordsWhy
            let records = graph.isTracing || keepsValues
            if records { recordRunStart(graph) }
            graph.beginTracking(self)
            graph.unlock()

            if !cleanups.isEmpty || !children.isEmpty {
                _tearDown(children: &children, cleanups: &cleanups, insideDerivation: insideDerivation)
            }
            // Saved unretained: both stay alive while this run is on the stack.
            let savedReaction = context.reactionRef
            unowned(unsafe) let savedOwner = context.owner
            // A write made inside `untracked { }` delivers from inside it; the reaction's
            // own reads must still be tracked.
            let savedUntrackedDepth = context.untrackedDepth
            context.reaction = self
            context.owner = self
            context.untrackedDepth = 0
            body()
            context.reactionRef = savedReaction
            context.owner = savedOwner
            context.untrackedDepth = savedUntrackedDepth

            graph.lock.lock()
            graph.endTracking(self)
            if records { recordRunEnd(graph, context, keepingValues: keepsValues) }
            hasRun = true
            if cancelRequested { break }
            if rerunRequested {
                rerunRequested = false
                if isStale, graph.sourcesChanged(self) { continue }
                isStale = false
            }
            break
        }
        isRunning = false
        if cancelRequested {
            let disposal = disposeLocked()
            graph.unlock()
            finish(disposal)
            // The reference `cancel()` took for the run (see there). Never the last one: a
            // queued job's hold (`markDisposed`), the caller of a first run, or an executor's
            // closure still holds the node.
            Unmanaged.passUnretained(self).release()
            graph.lock.lock()
        }
    }

    /// Cancels the reaction: unlinks it, then cancels its children and runs its cleanups
    /// (see `_tearDown`). If it is running (on another thread, or this is its own body),
    /// that happens when the run ends, on the thread that runs it.
    func cancel() {
        graphRef._withUnsafeGuaranteedRef { graph in
            graph.lock.lock()
            if isDisposed {
                graph.unlock()
                return
            }
            if isRunning {
                // Disposed when the run ends. The subscription lets go of the node once this
                // returns, and the run may drop the node's last source, so the node holds
                // itself until then.
                if !cancelRequested {
                    cancelRequested = true
                    _ = Unmanaged.passUnretained(self).retain()
                }
                graph.unlock()
                return
            }
            let disposal = disposeLocked()
            graph.unlock()
            finish(disposal)
        }
    }

    /// What a disposal hands over to be finished with the lock released.
    private struct Disposal: ~Copyable {
        var cleanups: [@Sendable () -> Void]
        var children: [Subscription]
        var sources: _Buffer<_Edge>
        /// Whether a derivation is being evaluated on the disposing thread.
        var insideDerivation: Bool
    }

    private func disposeLocked() -> Disposal {
        markDisposed()
        // Only a reaction that records why it runs keeps anything past the end of its run.
        if recordsWhy { forgetWhy(_graph) }
        let taken = Disposal(
            cleanups: cleanups,
            children: children,
            sources: _graph.disposeSources(of: self),
            insideDerivation: _graph.evaluatingRef != nil
        )
        cleanups = []
        children = []
        return taken
    }

    private func finish(_ disposal: consuming Disposal) {
        _tearDown(children: &disposal.children, cleanups: &disposal.cleanups, insideDerivation: disposal.insideDerivation)
        _releaseLater(disposal.sources.take())
    }

    /// Registers a cleanup for the current run; returns false if the reaction is already disposed.
    func _addCleanup(_ cleanup: @escaping @Sendable () -> Void) -> Bool {
        _graph.withLock {
            if isDisposed { return false }
            cleanups.append(cleanup)
            return true
        }
    }

    func _adopt(_ child: Subscription) -> Bool {
        _graph.withLock {
            if isDisposed || cancelRequested { return false }
            children.append(child)
            return true
        }
    }
}
