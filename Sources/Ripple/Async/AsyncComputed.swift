/// A value derived by an `async` operation that runs again when what it read changes: a search
/// as the query changes, a detail as the selection changes.
///
/// ```swift
/// let query = Stored("")
/// let results = AsyncComputed { try await api.search(query.value) }
///
/// let list = observe {
///     switch results.value {
///     case .idle, .loading(latest: nil): showSpinner()
///     case .loading(let latest?): show(latest, dimmed: true)
///     case .value(let found): show(found)
///     case .failure(let error, _): show(error)
///     }
/// }
/// ```
///
/// Its ``value`` is the operation's ``AsyncPhase``, a reactive value like any other: reading
/// it in a ``Computed``, an ``observe(file:line:_:)`` reaction or an Observation scope (a
/// SwiftUI body) tracks it.
///
/// - **Tracking**: the reactive values the operation reads *before its first suspension* are
///   its dependencies, as for a ``Computed``'s derivation (it starts synchronously, on the
///   thread that starts it, up to its first `await` that suspends). Reads after that are not
///   tracked: read what it depends on first. (An `await` of a function that returns without
///   suspending does not end the tracked part.) The operation's reads of its own ``value`` or
///   ``latest`` (the page loaded so far, to load the next) are never tracked: its own
///   `loading` would restart it.
/// - **Restart**: a change of a dependency cancels the running task (cooperative cancellation:
///   `Task.isCancelled`, `CancellationError`) and starts a new run. A run's result is published
///   only if no newer run started after it: a slow answer to an old query never overwrites the
///   answer to a newer one.
/// - **Laziness**: nothing runs until ``value`` is first read (anywhere, also inside a
///   derivation: the run then starts once the reading thread releases the graph).
///   ``cancel()`` stops it (and the handle's release does).
/// - **Platforms**: the synchronous start uses `Task.immediate`, from the 26 releases of
///   Apple's systems (and on Linux). On earlier Apple systems the operation starts in a plain
///   task and its reads are not tracked: nothing restarts it.
/// - **Threads**: it may be read, and its dependencies written, from any thread. The operation
///   starts on the thread whose write (or first read) starts it, and goes on wherever its
///   `await`s resume it. An operation isolated to the main actor (one that reads main-actor
///   state) is a ``MainActorAsyncComputed``.
///
/// - Complexity: A read costs one read of a ``Stored`` plus one acquisition of the graph's
///   lock (which starts the operation the first time).
public final class AsyncComputed<Success: Sendable>: Readable, @unchecked Sendable {
    /// The phase and the run it belongs to, written by the driver (a new run) and by the runs
    /// (their results) through `update`, whose read-modify-write is atomic: a result is
    /// published only if its run is still the latest.
    let state: Stored<_AsyncState<Success>>
    /// Starts one run of the operation, synchronously up to its first suspension, as a task
    /// that hands the run's result to the closure it is given.
    let startRun: @Sendable (_ finish: @escaping @Sendable (Result<Success, any Error>) -> Void) -> Task<Void, Never>
    /// Whether the operation is isolated to the main actor (``MainActorAsyncComputed``): its
    /// driver then runs on the main actor, where the operation starts.
    let runsOnMainActor: Bool
    let origin: _Origin
    /// The driver, the running task and the runs, behind a lock of their own (never held while
    /// calling into the graph).
    private let runs = _Locked(_AsyncRuns())
    /// Whether the driver was asked to start (graph's lock held to touch).
    private var isStarted = false
    /// The thread starting a run of the operation, up to its first suspension (0: none; graph's
    /// lock held to touch): its reads of ``value`` are the operation's own, never tracked.
    private var startingThread: UInt = 0

    /// Creates a value derived by `operation`, which starts when the value is first read.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - keepsRunningWhenUnobserved: Keep a run going when the last observer goes (by
    ///     default it is cancelled then, and starts again on the next read).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - operation: The derivation. What it reads before its first suspension is tracked; a
    ///     change of that cancels it and runs it again.
    public init(
        name: String? = nil,
        keepsRunningWhenUnobserved: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: @escaping @Sendable () async throws -> Success
    ) {
        origin = _Origin(name: name, fileID: file, line: line)
        state = Stored(_AsyncState(), name: name, comparingWith: _AsyncState.isUnchanged, file: file, line: line)
        startRun = { finish in
            _startImmediately {
                let result: Result<Success, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                finish(result)
            }
        }
        runsOnMainActor = false
        self.keepsRunningWhenUnobserved = keepsRunningWhenUnobserved
    }

    /// Creates a value derived by a main-actor `operation` (``MainActorAsyncComputed``): its
    /// driver is a main-actor reaction, and each run starts a task isolated to the main actor
    /// from inside it, which `Task.immediate` runs at once, up to its first suspension.
    init(
        name: String?,
        keepsRunningWhenUnobserved: Bool,
        file: StaticString,
        line: UInt,
        onMainActor operation: @escaping @MainActor () async throws -> Success
    ) {
        origin = _Origin(name: name, fileID: file, line: line)
        state = Stored(_AsyncState(), name: name, comparingWith: _AsyncState.isUnchanged, file: file, line: line)
        let operation = _MainActorOperation(operation)
        startRun = { finish in _startOnMainActor(operation, finish: finish) }
        runsOnMainActor = true
        self.keepsRunningWhenUnobserved = keepsRunningWhenUnobserved
    }

    deinit {
        if !keepsRunningWhenUnobserved {
            let state = state
            _graph.withLock { held in _graph.removeUnobservedHandler(of: state, held) }
        }
        let (driver, task) = runs.withLock { ($0.driver, $0.task) }
        driver?.cancel()
        task?.cancel()
    }

    /// Whether the operation goes on when the last observer of ``value`` goes.
    private let keepsRunningWhenUnobserved: Bool

    /// The operation's phase: ``AsyncPhase/idle`` before the first read, then loading, value or
    /// failure. Reading it inside a derivation or reaction tracks it; the first read starts the
    /// operation.
    public var value: AsyncPhase<Success> {
        if startIfNeeded() {
            // Read by the operation's own start: tracked, its `loading` would restart it.
            return untracked { state.value.phase }
        }
        return state.value.phase
    }

    /// The last settled value (see ``AsyncPhase/latest``), tracked like ``value``.
    public var latest: Success? { value.latest }

    /// Stops the operation for good: the running task is cancelled, and no change starts it
    /// again. The phase stays as it is.
    public func cancel() {
        let (driver, task) = runs.withLock { runs in
            runs.isCancelled = true
            return runs.takeDriverAndTask()
        }
        driver?.cancel()
        task?.cancel()
    }

    /// Whether run `run` of start `generation` is the latest run started, and no stop nor
    /// ``cancel()`` came after it.
    private func isLatest(_ run: Int, of generation: Int) -> Bool {
        runs.withLock { $0.started == run && $0.isCurrent(generation) }
    }

    /// Runs that ended so far, their result published or dropped (for tests).
    var _endedRuns: Int { runs.withLock { $0.ended } }

    /// Whether the operation is started, and whether a driver runs it (for tests).
    var _startState: (isStarted: Bool, hasDriver: Bool) {
        _graph.withLock { (isStarted, runs.withLock { $0.driver != nil }) }
    }

    /// Shows `value` at once, as if the operation had returned it, while `operation` (a save)
    /// runs; if `operation` throws, the phase it replaced comes back and the error is rethrown.
    ///
    /// ```swift
    /// try await todos.optimistic(todos.latest.map { $0 + [draft] } ?? [draft]) {
    ///     try await api.add(draft)
    /// }
    /// ```
    ///
    /// The rollback happens only if nothing replaced the optimistic value meanwhile (a run that
    /// settled, another optimistic value): a newer phase is never overwritten with an older one.
    /// A run that is loading when the optimistic value is shown still publishes its result.
    ///
    /// - Parameters:
    ///   - value: The value to show now.
    ///   - operation: The work the value anticipates.
    /// - Throws: What `operation` throws, after the rollback.
    public func optimistic(_ value: Success, operation: () async throws -> Void) async throws {
        let shown = showOptimistic(value)
        do {
            try await operation()
        } catch {
            rollBack(shown)
            throw error
        }
    }

    /// Shows an optimistic value (`optimistic`'s first half): returns its number, which
    /// ``rollBack(_:)`` takes.
    ///
    /// The phase it replaces is kept in the state, by the write that replaces it: inside a
    /// reaction that write is queued until the round ends, and the rollback, queued after it,
    /// finds it there.
    func showOptimistic(_ value: Success) -> Int {
        _ = startIfNeeded()
        let number = runs.withLock { runs in
            runs.optimisticValues &+= 1
            return runs.optimisticValues
        }
        state.update { current in
            let replaced = current.phase
            current.phase = .value(value)
            current.optimistic = _OptimisticValue(number: number, revision: current.revision, replaced: replaced)
        }
        return number
    }

    /// Puts back the phase optimistic value `number` replaced, unless something replaced it
    /// since.
    func rollBack(_ number: Int) {
        state.update { current in
            guard let shown = current.optimistic, shown.number == number, shown.revision == current.revision else {
                return
            }
            switch current.phase {
            // A run started or failed since: the value it kept as latest is the rejected one.
            case .loading: current.phase = .loading(latest: shown.replaced.latest)
            case .failure(let error, _): current.phase = .failure(error, latest: shown.replaced.latest)
            case .idle, .value: current.phase = shown.replaced
            }
            current.optimistic = nil
        }
    }

    /// Starts the driver the first time the value is read: at once, or, inside a derivation
    /// (the thread holds the graph), once the thread releases it. Returns whether the calling
    /// thread is starting a run of the operation (the read is the operation's own).
    private func startIfNeeded() -> Bool {
        let graph = _graph
        return graph.withLock { held in
            if isStarted { return startingThread != 0 && startingThread == _Lock.currentThread }
            isStarted = true
            if !keepsRunningWhenUnobserved {
                graph.onUnobserved(state, held) { [weak self] in self?.stopIfUnobserved() }
            }
            // This start's generation: a stop made before its driver is in place outdates it.
            let generation = runs.withLock { $0.start() }
            // Released after the outermost unlock, on this thread: its deinit starts the driver.
            graph.keepUntilUnlock(_RunOnRelease { [weak self] in self?.startDriver(generation) })
            return false
        }
    }

    /// Stops the operation when nothing observes ``value`` any longer (lock released): the next
    /// read starts it again, from the phase it had.
    ///
    /// The driver and the task are taken out under the graph's lock, in the same hold that
    /// marks the operation stopped: a read on another thread that starts it again does so
    /// after, with a new generation, and this stop cannot take that start's driver. A start
    /// made before, whose driver is not in place yet, is outdated: its driver, and the task its
    /// first run started, cancel themselves.
    private func stopIfUnobserved() {
        let (driver, task) = _graph.withLock { held -> (Subscription?, Task<Void, Never>?) in
            guard isStarted, !held[hasObservers: state] else { return (nil, nil) }
            isStarted = false
            return runs.withLock { $0.stop() }
        }
        driver?.cancel()
        task?.cancel()
    }

    /// Starts the reaction that runs the operation now and after every change of what it read
    /// before its first suspension (`generation`: the start's, see ``_AsyncRuns/start()``). It
    /// belongs to no reaction that may be running.
    private func startDriver(_ generation: Int) {
        guard runs.withLock({ $0.isCurrent(generation) }) else { return }
        let subscription = withoutOwner {
            if runsOnMainActor {
                // Runs on the main actor: at once when triggered there, else sent there.
                return _startReaction(_mainActorReaction(origin: origin) { [weak self] in self?.run(generation) })
            }
            return _startReaction(_ReactionNode(origin: origin) { [weak self] in self?.run(generation) })
        }
        // A driver this one replaces (one a stop had not taken out yet) is cancelled once the
        // lock is released: its release would run its teardown, user code, under the lock.
        let (keep, replaced) = runs.withLock { runs -> (Bool, Subscription?) in
            guard runs.isCurrent(generation) else { return (false, nil) }
            defer { runs.driver = subscription }
            return (true, runs.driver)
        }
        replaced?.cancel()
        if !keep { subscription.cancel() }
    }

    /// One run, inside the driver's reaction: cancels the previous task, publishes `loading`,
    /// and starts the operation synchronously so that its first reads are the reaction's. A run
    /// of a driver a stop outdated (`generation`) does nothing.
    private func run(_ generation: Int) {
        let claimed = runs.withLock { runs -> (Int, Task<Void, Never>?)? in
            guard runs.generation == generation else { return nil }
            runs.started += 1
            defer { runs.task = nil }
            return (runs.started, runs.task)
        }
        guard let (thisRun, previous) = claimed else { return }
        previous?.cancel()
        // Queued (this is a reaction): applied after the round, unless the run already
        // settled on another thread meanwhile.
        state.update { state in
            guard state.run < thisRun else { return }
            state.run = thisRun
            let carried = state.optimisticShown
            state.phase = .loading(latest: state.phase.latest)
            // An optimistic value shown is kept as latest: its rollback still takes it back.
            state.carry(carried)
        }
        let state = state
        let me = _Lock.currentThread
        _graph.withLock { startingThread = me }
        defer { _graph.withLock { if startingThread == me { startingThread = 0 } } }
        let started = startRun { [weak self] result in
            state.update { current in
                // A newer run started: this result is never published. (Checked against the
                // runs started, not the phase: this run's own start may not be applied yet.)
                // Nor is the result of a run that a stop or `cancel()` outdated (its
                // `CancellationError`, or an answer the stopped run gave anyway).
                guard current.run <= thisRun, self?.isLatest(thisRun, of: generation) == true else { return }
                current.run = thisRun
                switch result {
                case .success(let value):
                    current.phase = .value(value)
                    current.optimistic = nil
                case .failure(let error):
                    let carried = current.optimisticShown
                    current.phase = .failure(error, latest: current.phase.latest)
                    current.carry(carried)
                }
            }
            self?.runs.withLock { $0.ended += 1 }
        }
        let cancelNow = runs.withLock { runs in
            guard runs.started == thisRun, runs.isCurrent(generation) else { return true }
            runs.task = started
            return false
        }
        if cancelNow { started.cancel() }
    }
}

/// The phase of an ``AsyncComputed`` and the run it belongs to.
struct _AsyncState<Success> {
    /// The latest run started.
    var run = 0
    /// Bumped by every change of `phase`: an optimistic value is rolled back only if nothing
    /// replaced it meanwhile.
    var revision = 0
    var phase: AsyncPhase<Success> = .idle {
        didSet { revision &+= 1 }
    }
    /// The optimistic value shown last, while it is the phase (see `AsyncComputed.showOptimistic`).
    var optimistic: _OptimisticValue<Success>?
}

/// An optimistic value shown by `AsyncComputed.optimistic`: its number, the phase's revision
/// it made, and the phase it replaced, which its rollback puts back.
struct _OptimisticValue<Success> {
    let number: Int
    let revision: Int
    let replaced: AsyncPhase<Success>
}

extension _OptimisticValue: Sendable where Success: Sendable {}

extension _AsyncState {
    /// Whether `new` is `old` untouched (a result of an outdated run, a start the run's own
    /// result overtook, a rollback whose value was replaced): such a write changes nothing, and
    /// runs no reader. Every change of the phase bumps `revision`.
    static func isUnchanged(_ old: Self, _ new: Self) -> Bool {
        old.run == new.run && old.revision == new.revision && old.optimistic?.number == new.optimistic?.number
    }

    /// The optimistic value whose value is the phase's `latest` now, if any.
    var optimisticShown: _OptimisticValue<Success>? {
        guard let optimistic, optimistic.revision == revision else { return nil }
        return optimistic
    }

    /// After a change of the phase that kept its `latest`: keeps `shown` (the optimistic value
    /// that was that latest) for its rollback.
    mutating func carry(_ shown: _OptimisticValue<Success>?) {
        optimistic = shown.map { _OptimisticValue(number: $0.number, revision: revision, replaced: $0.replaced) }
    }
}

extension _AsyncState: Sendable where Success: Sendable {}

/// An ``AsyncComputed``'s runs (guarded by its lock, see ``_Locked``).
struct _AsyncRuns: Sendable {
    /// The reaction that tracks the operation's synchronous start and restarts it.
    var driver: Subscription?
    /// The running task.
    var task: Task<Void, Never>?
    /// The runs started.
    var started = 0
    /// Runs that ended, their result published or dropped (for tests).
    var ended = 0
    var isCancelled = false
    /// The optimistic values shown so far (each is numbered, see `AsyncComputed.showOptimistic`).
    var optimisticValues = 0
    /// Bumped by every start and every stop: a driver, and a run, belong to the start that
    /// made them, and do nothing once another start or a stop came after it.
    var generation = 0

    /// A start: returns its generation.
    mutating func start() -> Int {
        generation &+= 1
        return generation
    }

    /// A stop: outdates the current start and takes its driver and task out, to be cancelled
    /// once the locks are released.
    mutating func stop() -> (Subscription?, Task<Void, Never>?) {
        generation &+= 1
        return takeDriverAndTask()
    }

    /// Whether what start `generation` made may go on: no start or stop came after it, and the
    /// value is not cancelled.
    func isCurrent(_ generation: Int) -> Bool {
        self.generation == generation && !isCancelled
    }

    /// Takes the driver and the task out, to be cancelled once the lock is released.
    mutating func takeDriverAndTask() -> (Subscription?, Task<Void, Never>?) {
        defer {
            driver = nil
            task = nil
        }
        return (driver, task)
    }
}

/// A main-actor operation (``MainActorAsyncComputed``'s), handed to the tasks that run it.
final class _MainActorOperation<Success>: @unchecked Sendable {
    // @unchecked: `run` is isolated to the main actor, so it is only ever called there, and it
    // is set once.
    let run: @MainActor () async throws -> Success

    init(_ run: @escaping @MainActor () async throws -> Success) { self.run = run }
}

/// Starts a run of a main-actor operation as a task isolated to the main actor, which runs at
/// once, up to its first suspension, when started on the main actor; the run's outcome goes to
/// `finish`. (A function of its own: Swift 6.3's region-based isolation checker rejects the
/// same task written inside the initializer's closure.)
func _startOnMainActor<Success: Sendable>(
    _ operation: _MainActorOperation<Success>, finish: @escaping @Sendable (Result<Success, any Error>) -> Void
) -> Task<Void, Never> {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
        return Task.immediate { @MainActor in finish(await _outcome(of: operation)) }
    }
    return Task { @MainActor in finish(await _outcome(of: operation)) }
}

/// What a run of a main-actor operation returned or threw.
@MainActor
private func _outcome<Success>(of operation: _MainActorOperation<Success>) async -> Result<Success, any Error> {
    do {
        return .success(try await operation.run())
    } catch {
        return .failure(error)
    }
}

/// Starts `operation` as a task that runs synchronously on this thread up to its first
/// suspension (so that the reads it makes first are tracked by the running reaction).
///
/// `Task.immediate` needs the 26 releases on Apple platforms; before them the operation starts
/// as a plain task, whose reads are not tracked (documented on ``AsyncComputed``).
func _startImmediately(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
        return Task.immediate(operation: operation)
    }
    return Task(operation: operation)
}
