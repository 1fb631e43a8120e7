import Ripple
import _RippleThread

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a store is, without the store: subscriptions, derived values and dispatchers
/// hold this, so none of them keeps a store alive.
///
/// The state lives in one core node, `node`, holding the latest published ``_Snapshot``.
/// Every reader (subscribers, key-path slices, derived values) is a core node or reaction
/// reading it, so glitch-freedom, ordering and lifetimes are the core's.
///
/// Commits are serialized by a *gate*: a thread owns it from the moment it reads the state to
/// mutate until its write has been delivered to the synchronous subscribers, so that commits
/// from many threads are applied and delivered one after the other, in the order they took the
/// gate. Waiting threads wait on `lock`'s condition; no lock is held while the mutation (user
/// code) or the delivery runs. A commit made on the owning thread while it delivers (from a
/// subscriber) re-enters the gate: its write is queued by the core after the current round.
///
/// A thread that would wait for the gate while its owner waits, through other stores, for it
/// (``_WaitRegistry``) hands its commit over instead: it runs its mutation on `latest` (one
/// handed-over mutation at a time, never during the owner's), and appends the snapshot to
/// `handed`. The owner, when its own deliveries are done, publishes the handed snapshots one
/// round each, driven by the follower reaction (`drainTick`), then leaves the gate.
@usableFromInline
final class _StoreCore<State: Equatable & Sendable>: _Waitable, @unchecked Sendable {
    /// The published state. Writes of an older version count as equal and are dropped, so the
    /// node only moves forward even when a commit made inside a `batch` is applied late.
    let node: _SnapshotNode<State>
    let name: String
    /// The middleware steps, in order: the initializer's, then those added since (guarded by
    /// `lock`; an array is copied on write, so a commit reads it once and runs it unlocked).
    private var middlewareSteps: [StoreMiddleware<State>]
    let logger: (any StoreLogger)?
    /// `logger != nil`, tested on every commit without copying the existential.
    let hasLogger: Bool
    let derivesFields: ((inout State, Changes<State>) -> Void)?
    /// Whether the state has derived fields, and whether the store has middleware: tested
    /// before touching either, generic values that are costly to test in this unspecialized
    /// code. Middleware can be added at any time: `hasMiddleware` is a word set once, to 1,
    /// after the first step is appended, and read without the lock (a C atomic: `Atomic`
    /// needs macOS 15 / iOS 18).
    private let hasDerivedFields: Bool
    private let hasMiddleware = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    /// The state the store was created with, as published (derived fields applied).
    let initialState: State
    /// `_Snapshot<State>`, kept: a commit allocates its snapshot through it, where naming the
    /// type in this unspecialized code would look up its metadata every time.
    private let snapshotType = _Snapshot<State>.self

    private let lock = _Lock()
    // Guarded by `lock`:
    /// The latest committed snapshot, published or about to be.
    private var latest: _Snapshot<State>
    /// The thread that owns the gate (0: none) and how many commits it has in flight.
    private var gateOwner: UInt = 0
    private var gateDepth = 0
    /// Set while the gate owner runs a mutation or middleware: a commit then is a mistake.
    private var isMutating = false
    /// The thread running a handed-over commit's mutation (0: none; see ``handed``).
    private var handoverMutator: UInt = 0
    /// Commits applied by threads that could not wait for the gate (waiting would have closed a
    /// cycle of stores, see ``_WaitRegistry``), in version order, for the gate's owner to
    /// deliver after its own. While any is here, the owner's own commits join them, so that
    /// every commit is delivered once, in version order.
    ///
    /// Unchecked exclusivity: every commit reads it, and the run-time check of each access cost
    /// about 80 instructions (a tenth of a commit with no subscriber); every access holds
    /// `lock`, so no two can overlap.
    @exclusivity(unchecked) private var handed: [_AnySnapshot] = []
    /// The owner's delivery of ``handed`` (driven by the follower, one commit per round).
    private var handedDelivery = HandedDelivery.idle
    /// Counts the wake-ups of ``wakeToRecheck()``: a waiter that sees it move checks again.
    private var recheckEpoch = 0
    /// Written to run the follower when the owner must deliver ``handed``.
    private let drainTick = Stored<UInt64>(0, name: "store handover")
    private var drainTicks: UInt64 = 0

    enum HandedDelivery {
        case idle
        /// The owner holds the gate for the next handed commit.
        case requested
        /// The owner published one; it leaves the gate once that round has been delivered.
        case published
    }
    private var slices: [AnyKeyPath: AnyObject] = [:]
    /// The fields of a ``StateFields`` state (`nil` for a plain state), and the routes made for
    /// those some key-path reader reads through (guarded by `lock`; see ``_FieldRoutes``).
    private let fields: _FieldRoutes<State>?
    /// `fields != nil`, tested on every commit without looking up the optional's metadata.
    private let hasFields: Bool
    private var routeOfField: [Int: _FieldRoute] = [:]
    private var routes: [_FieldRoute] = []
    /// The newest snapshot a commit published and compared with the routes (a route made
    /// after that comparison catches up with it).
    private var lastRouted: _AnySnapshot?
    private var endings: [Int: @Sendable () -> Void] = [:]
    private var nextEndingID = 0
    private var isEnded = false
    /// Run with the previously published state (as the committing thread reads it), the new
    /// state and the new state's version, in the batch that publishes each commit (entity
    /// observers), so what they write is consistent with the state.
    private var publishHooks: _PublishHooks<State>?
    /// How many publish hooks were added (lock held to add, read without it: a C counter). A
    /// publish compares it with the count it saw with its hooks: a registry added meanwhile,
    /// whose nodes started from the state published before, missed this publish, which runs
    /// the hooks again (see `rerunHooks(from:)`).
    private let hooksAdded = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    /// The per-entity observers of each table, by key path (``_EntityObservers``).
    var entityRegistries: [AnyKeyPath: AnyObject] = [:]
    /// What each commit woke, for the logger (only kept when there is one).
    private var woken: [UInt64: [StoreLog.Wake]] = [:]
    /// The commits published or about to be, not logged yet, in version order (only kept when
    /// there is a logger): each is logged once the round that published it has been delivered.
    /// A commit that changed nothing is listed too, after those of its version, while any
    /// commit waits here: it is logged in version order, after them.
    private var unlogged:
        [(version: UInt64, transaction: Transaction, start: ContinuousClock.Instant?, changed: Bool)] =
            []
    deinit {
        hasMiddleware.deallocate()
        hooksAdded.deallocate()
    }

    /// The store's own reaction on `node` (see ``startFollower()``).
    private var follower: Subscription?
    /// The plain subscribers (`sinkState`), and the reaction that delivers them.
    let sinks = _StoreSinks()

    init(
        initialState: State,
        name: String,
        middleware: [StoreMiddleware<State>],
        logger: (any StoreLogger)?,
        derivesFields: ((inout State, Changes<State>) -> Void)?
    ) {
        // The initial state is published with its derived fields up to date, as every commit's
        // state is (Verge runs `reduce` at creation): every field reads as if it had changed.
        let initial = _initialState(initialState, derivingFieldsWith: derivesFields)
        let snapshot = _Snapshot(state: initial, version: 0, transaction: Transaction(name: "initial state"))
        latest = snapshot
        self.initialState = initial
        self.name = name
        self.middlewareSteps = middleware
        self.logger = logger
        hasLogger = logger != nil
        self.derivesFields = derivesFields
        hasDerivedFields = derivesFields != nil
        fields = _FieldRoutes.ofState()
        hasFields = fields != nil
        hasMiddleware.initialize(to: middleware.isEmpty ? 0 : 1)
        hooksAdded.initialize(to: 0)
        node = _SnapshotNode(snapshot, name: name)
        if logger != nil { follower = startFollower() }
    }

    /// The store's own reaction on `node`: it runs in the round that publishes a commit, on the
    /// delivering thread, among the commit's subscribers, and queues ``afterRound(through:)``
    /// after that round, once every reaction the round woke has run. A write made inside
    /// `batch { }` is published when the batch ends, so what follows a commit's delivery must
    /// wait for this, not for the commit's end.
    private func startFollower() -> Subscription {
        withoutOwner {
            observe { [node, drainTick, weak self] in
                let version = node.value.version
                _ = drainTick.value
                writeInOrder { self?.afterRound(through: version) }
            }
        }
    }

    /// Runs after the round that published `version` has been delivered: logs the commits up
    /// to it, each naming what it woke.
    private func afterRound(through version: UInt64) {
        deliverHanded()
        guard let logger else { return }
        let done = lock.withLock {
            () -> [(
                version: UInt64, transaction: Transaction, start: ContinuousClock.Instant?, changed: Bool,
                woken: [StoreLog.Wake]
            )] in
            guard let first = unlogged.first, first.version <= version else { return [] }
            let count = unlogged.prefix { $0.version <= version }.count
            let done = unlogged.prefix(count).map {
                (
                    $0.version, $0.transaction, $0.start, $0.changed,
                    $0.changed ? woken.removeValue(forKey: $0.version) ?? [] : []
                )
            }
            unlogged.removeFirst(count)
            return done
        }
        for commit in done {
            logger.didCommit(
                StoreLog.Commit(
                    store: name, transaction: commit.transaction, version: commit.version, changed: commit.changed,
                    duration: commit.start.map { ContinuousClock.now - $0 } ?? .zero, woken: commit.woken))
        }
    }

    /// The latest committed state, read without tracking.
    var latestSnapshot: _Snapshot<State> {
        lock.withLock { latest }
    }

    /// The state as a read made now on this thread sees it: the published state for a tracked
    /// read (readers see one state per round, in order), and for an untracked read on the
    /// thread that owns the gate (committing, or delivering with commits made by its
    /// subscribers still queued), the latest committed state, so that the thread reads back
    /// every commit it made at once.
    var currentSnapshot: _Snapshot<State> {
        untrackedAhead() ?? node.value
    }

    /// The latest committed snapshot when a read made now on this thread must see it rather
    /// than the published one: this thread owns the gate and the read is not tracked. `nil`
    /// otherwise (lock not held).
    ///
    /// - Complexity: O(1): the store's lock, and the graph's when this thread owns the gate.
    func untrackedAhead() -> _Snapshot<State>? {
        let me = _Lock.currentThread
        guard let candidate = lock.withLock({ gateOwner == me ? latest : nil }) else { return nil }
        // A tracked read (a reader run in the round) sees the round's state: readers stay
        // consistent and run once per commit, in order.
        return _readIsTracked() ? nil : candidate
    }

    // MARK: Commit

    func commit<Result, Failure: Error>(
        _ transaction: consuming Transaction,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Tracers hear of the commit, with the reactions it woke. Without one, the commit runs
        // directly: the closure `traceCommit` takes cost its context and a generic call.
        guard _commitsAreTraced() else { return try commitUntraced(transaction, mutation) }
        let traced = copy transaction
        return try traceCommit(of: name, transaction: traced.description) { () throws(Failure) -> Result in
            try commitUntraced(traced, mutation)
        }
    }

    /// ``commit(_:_:)``'s work, apart from its tracing. Inlined into it: a call between the
    /// two, generic over the result and the error, cost 22 of a commit's 2 081 instructions.
    @inline(__always)
    private func commitUntraced<Result, Failure: Error>(
        _ transaction: consuming Transaction,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var open = openCommit(transaction)
        var state = base(of: open).state
        let result: Result
        do throws(Failure) {
            result = try mutation(&state, &open.transaction)
        } catch {
            abandon(open)
            throw error
        }
        close(consume open, with: consume state)
        return result
    }

    /// A commit between the moment it took the gate and its mutation's end (``_OpenCommit``).
    typealias OpenCommit = _OpenCommit

    /// The snapshot `open`'s mutation starts from.
    func base(of open: OpenCommit) -> _Snapshot<State> {
        unsafeDowncast(open.base, to: _Snapshot<State>.self)
    }

    /// Takes the gate (waiting for other threads' commits) and returns the state to mutate.
    func openCommit(_ transaction: consuming Transaction) -> OpenCommit {
        let me = _Lock.currentThread
        // The gate free (the common case): taken here, without `enterGate`'s waiting and
        // checks, whose result (an optional tuple of a snapshot of `State`) this unspecialized
        // code tests through generic metadata.
        lock.lock(as: me)
        if gateOwner == 0, handoverMutator == 0, !isEnded {
            let base: _AnySnapshot = takeGate(me)
            lock.unlock()
            return OpenCommit(
                thread: me, base: base, transaction: transaction, start: hasLogger ? _CommitStart() : nil,
                isDropped: false)
        }
        lock.unlock()
        guard let (base, isHandedOver) = enterGate(me, transaction) else {
            return OpenCommit(thread: me, base: latestSnapshot, transaction: transaction, start: nil, isDropped: true)
        }
        return OpenCommit(
            thread: me, base: base, transaction: transaction, start: hasLogger ? _CommitStart() : nil,
            isDropped: false, isHandedOver: isHandedOver)
    }

    /// Ends a commit whose mutation failed: nothing changes.
    func abandon(_ open: OpenCommit) {
        if open.isDropped { return }
        if open.isHandedOver {
            endHandover()
            return
        }
        leaveGate(open.thread, mutated: true)
    }

    /// A handed-over mutation ended (lock not held).
    private func endHandover() {
        lock.withLock {
            handoverMutator = 0
            lock.broadcast()
        }
    }

    /// Ends a commit with the state its mutation left: derived fields and middleware, then,
    /// if the state changed, publishes it.
    func close(_ open: consuming OpenCommit, with state: consuming State) {
        if open.isDropped { return }
        let me = open.thread
        let isHandedOver = open.isHandedOver
        let base = base(of: open)
        if hasDerivedFields { deriveFields(of: &state, from: base, open.transaction) }
        if _ripple_once_word_load(hasMiddleware) != 0 { applyMiddleware(to: &state, from: base, &open.transaction) }
        // `!(==)`, not `!=`: in this unspecialized code the standard library's `!=` copied the
        // state and destroyed the copy, through its value witnesses (135 of a commit's 2 216
        // instructions with a three-field state).
        guard !(state == base.state) else {
            if isHandedOver { endHandover() } else { leaveGate(me, mutated: true) }
            if hasLogger { logUnchanged(open.transaction, version: base.version, start: open.start) }
            return
        }
        let start = open.start
        // The state and the transaction move into the snapshot: copied, each cost a copy and a
        // destruction through value witnesses in this unspecialized code (about 200
        // instructions of a commit with no subscriber).
        let snapshot = snapshotType.init(
            state: consume state, version: base.version &+ 1, transaction: open.takeTransaction())
        // The owner delivers handed commits through the follower: it must exist before the
        // first one is handed.
        if isHandedOver { ensureFollower() }
        // Not `withLock`: its closure's context would be allocated and its captures retained on
        // every commit.
        lock.lock(as: me)
        let isRouted = hasFields && !routes.isEmpty
        latest = snapshot
        if hasLogger { noteUnlogged(snapshot, start: start) }
        let joinsHanded: Bool
        if isHandedOver {
            handoverMutator = 0
            lock.broadcast()
            if gateOwner == 0 {
                // The owner left meanwhile: this thread delivers it, as the owner.
                gateOwner = me
                gateDepth = 1
                joinsHanded = false
            } else {
                joinsHanded = true
            }
        } else {
            isMutating = false
            // Delivered after the handed commits before it, by the same delivery.
            joinsHanded = !handed.isEmpty
        }
        if joinsHanded { handed.append(snapshot) }
        let hooks = publishHooks
        let hooksSeen = _ripple_counter_load(hooksAdded)
        lock.unlock()
        if joinsHanded {
            if !isHandedOver { leaveGate(me, mutated: false) }
            return
        }
        // At once outside reactions; queued after the current round inside one (a commit from a
        // subscriber), and the gate is released only once that write has been delivered.
        // Hooks with nothing to do (selectors all released) count as none. Asked only when the
        // write applies here: queued, `publish` asks when it runs.
        if _writesApplyInPlace(), hooks == nil || hooks.unsafelyUnwrapped.areIdle {
            // `writeInOrder` would run both at once: skip its closures and its batch.
            if isRouted {
                publish(snapshot, hooks: nil, seen: hooksSeen, isRouted: true)
            } else {
                publishAlone(consume snapshot)
                if _ripple_counter_load(hooksAdded) != hooksSeen { rerunHooks(from: base) }
            }
            leaveGate(me, mutated: false)
            return
        }
        // The hooks as they are when it is published: a registry made meanwhile (by a reader of
        // this round, see `Store.entity(_:in:)`) hears of it.
        writeInOrder { [self, isRouted] in
            let (hooks, seen) = currentPublishHooks
            publish(snapshot, hooks: hooks, seen: seen, isRouted: isRouted)
        }
        // The logger hears of the commit from the follower, once its round has been delivered.
        writeInOrder { [self] in leaveGate(me, mutated: false) }
    }

    /// Lists a published commit for the logger (lock held; apart from `close`, as
    /// ``logUnchanged(_:version:start:)``).
    @inline(never)
    private func noteUnlogged(_ snapshot: _Snapshot<State>, start: _CommitStart?) {
        woken[snapshot.version] = []
        unlogged.append((snapshot.version, snapshot.transaction, start?.instant, true))
    }

    /// Tells the logger of a commit that changed nothing (apart from `close`, which would
    /// otherwise copy the logger's existential on every commit): at once, unless commits wait
    /// for their round to be logged (made inside a subscriber or a batch); then after those of
    /// its version (`version`, the state it left), in version order.
    @inline(never)
    private func logUnchanged(_ transaction: Transaction, version: UInt64, start: _CommitStart?) {
        let joined = lock.withLock { () -> Bool in
            guard !unlogged.isEmpty else { return false }
            let index = unlogged.lastIndex { $0.version <= version }.map { $0 + 1 } ?? 0
            unlogged.insert((version, transaction, start?.instant, false), at: index)
            return true
        }
        if joined { return }
        logger?.didCommit(
            StoreLog.Commit(
                store: name, transaction: transaction, version: version, changed: false,
                duration: start.map { ContinuousClock.now - $0.instant } ?? .zero, woken: []))
    }

    /// Updates the derived fields of `state`, committed on top of `base`. Apart from `close`, and
    /// never inlined into it: the metadata of `Changes<State>` and of the optional closure,
    /// looked up at run time in this unspecialized code, would otherwise be looked up on every
    /// commit (650 of a commit's 5 000 instructions), derived fields or not.
    @inline(never)
    private func deriveFields(of state: inout State, from base: _Snapshot<State>, _ transaction: Transaction) {
        guard let derivesFields else { return }
        let current = snapshotType.init(state: state, version: base.version &+ 1, transaction: transaction)
        derivesFields(&state, Changes(_previous: base, current: current))
    }

    /// Runs the middleware on `state`, committed on top of `base` (apart from `close`, as
    /// ``deriveFields(of:from:_:)``).
    @inline(never)
    private func applyMiddleware(to state: inout State, from base: _Snapshot<State>, _ transaction: inout Transaction) {
        // Derived fields brought up to date again come from the state before the commit.
        _applyMiddleware(
            lock.withLock { middlewareSteps }, to: &state, previous: base.state, &transaction,
            derivesFieldsAgain: hasDerivedFields
        ) { state, transaction in deriveFields(of: &state, from: base, transaction) }
    }

    /// After a commit published with no route to compare (the state has fields, but no reader
    /// read through one when the commit began): a route made since then is touched, so that its
    /// readers, which may have read the state before this commit, read it again.
    /// `skipping` routes were compared already.
    private func touchLateRoutes(after snapshot: _Snapshot<State>, skipping compared: Int = 0) {
        let late = lock.withLock { () -> ArraySlice<_FieldRoute> in
            noteRouted(snapshot)
            return routes.dropFirst(compared)
        }
        for route in late { route.tick.value = snapshot }
    }

    /// Records `snapshot` as compared with the routes (lock held).
    private func noteRouted(_ snapshot: _AnySnapshot) {
        if snapshot.version > lastRouted?.version ?? 0 { lastRouted = snapshot }
    }

    /// Publishes `snapshot` with neither hooks nor routes: the node alone (and a route made
    /// since the commit closed). Apart from ``publish(_:hooks:isRouted:)``, whose closure
    /// makes the runtime look up generic metadata on entry: 300 of the 3 800 instructions of a
    /// commit with no subscriber.
    ///
    /// Takes the snapshot `consuming`: the caller's reference moves into the node, with no
    /// retain and release around the call.
    private func publishAlone(_ snapshot: consuming _Snapshot<State>) {
        guard hasFields else {
            node.value = snapshot
            return
        }
        node.value = copy snapshot
        touchLateRoutes(after: snapshot)
    }

    /// Publishes `snapshot`: the node, the routes of the fields it changed, then the hooks. Run
    /// at once outside reactions and batches, else in the batch of a `writeInOrder`.
    ///
    /// With neither hooks nor routes (`isRouted`: some reader read through a field when the
    /// commit closed), the node alone. Else both compare with the state this thread reads as
    /// published, not with the commit's base: a commit made inside a `batch` on another thread
    /// is not applied until that batch ends, so its entity writes are not either, and this
    /// commit, made on top of it, must write them too. The routes are compared before the
    /// write: when no field a reader reads through changed and there are no hooks, the node is
    /// written alone, without a batch (a commit to a field nobody reads costs the same with 0
    /// or 10 000 readers of others). Routes are only appended: those made since the comparison
    /// are touched after the write.
    ///
    /// A route holds the snapshot of its field's last change: a commit that leaves the field
    /// alone leaves it. A snapshot older than the published one (a commit applied late, see
    /// `node`) is not published, so it changes no route.
    ///
    /// `seen`: how many hooks had been added when `listed` was read (see `hooksAdded`).
    private func publish(
        _ snapshot: _Snapshot<State>, hooks listed: _PublishHooks<State>?, seen: UInt, isRouted: Bool
    ) {
        let previous = untracked { node.value }
        defer { if _ripple_counter_load(hooksAdded) != seen { rerunHooks(from: previous) } }
        let hooks = listed?.areIdle == true ? nil : listed
        guard hooks != nil || isRouted else { return publishAlone(snapshot) }
        let compared = isRouted ? lock.withLock { routes } : []
        let changed =
            snapshot.version > previous.version ? compared.filter { !$0.isUnchanged(previous, snapshot) } : []
        let write = { [self] in
            node.value = snapshot
            for route in changed { route.tick.value = snapshot }
            if hasFields { touchLateRoutes(after: snapshot, skipping: compared.count) }
            hooks?.run(previous, snapshot)
        }
        if changed.isEmpty, hooks == nil { write() } else { batch(write) }
    }

    /// Takes the gate for a commit on thread `me` (waiting while another thread owns it) and
    /// returns the state to mutate, and whether the commit is handed over; `nil` once the store
    /// has been released (the commit is dropped, as the reducer store's binding drops its
    /// sends).
    ///
    /// A thread that must wait asks ``_WaitRegistry`` first: when the gate's owner waits, through
    /// any chain of stores, for this thread, waiting would never end. Then, if the owner is not
    /// in a mutation, this thread runs its mutation on the latest state now, and the commit is
    /// handed to the owner, which delivers it after its current delivery (``handed``).
    private func enterGate(_ me: UInt, _ transaction: Transaction) -> (_Snapshot<State>, Bool)? {
        lock.lock(as: me)
        if (gateOwner == me && isMutating) || handoverMutator == me {
            lock.unlock()
            // `fatalError`, not `preconditionFailure`: optimized builds drop a precondition's message.
            fatalError(
                "RippleStore: \(transaction) on \(name) was made inside the mutation of another commit to the same store (or its middleware). A mutation changes the state it is given; commit again after it returns."
            )
        }
        var registered = false
        defer { if registered { _WaitRegistry.shared.done(me) } }
        // Another thread's commit usually ends within microseconds: check a few times,
        // yielding the processor, before registering and sleeping on the condition (a sleep
        // and its wake-up, for every waiter at each release, cost far more). Not while this
        // thread could be the one the owner waits for: only before its first check, and never
        // when the owner is mid-handover.
        var spins = 0
        while spins < 32, gateOwner != 0, gateOwner != me, handoverMutator == 0, !isEnded {
            lock.unlock()
            sched_yield()
            spins += 1
            lock.lock(as: me)
        }
        while true {
            if isEnded {
                lock.unlock()
                return nil
            }
            if gateOwner == 0 || gateOwner == me, handoverMutator == 0 {
                let base = takeGate(me)
                lock.unlock()
                return (base, false)
            }
            let epoch = recheckEpoch
            lock.unlock()
            let verdict = _WaitRegistry.shared.check(me, waitingFor: self)
            registered = true
            lock.lock(as: me)
            switch verdict {
            case .handOver:
                if gateOwner != 0, gateOwner != me, !isMutating, handoverMutator == 0, !isEnded {
                    handoverMutator = me
                    let base = latest
                    lock.unlock()
                    return (base, true)
                }
            case .deadlock(let message):
                lock.unlock()
                fatalError(message)
            case .wait:
                if recheckEpoch == epoch, !(gateOwner == 0 || gateOwner == me) || handoverMutator != 0 {
                    lock.wait()
                }
            }
        }
    }

    /// Takes the gate (free, or already `me`'s) for a mutation on thread `me` (lock held):
    /// returns the state it mutates. `openCommit` when the gate is free, `enterGate` else.
    @inline(__always)
    private func takeGate(_ me: UInt) -> _Snapshot<State> {
        gateOwner = me
        gateDepth += 1
        isMutating = true
        return latest
    }

    /// Whether thread `me` owns the gate: it is committing or delivering a commit.
    func isGateOwner(_ me: UInt) -> Bool {
        lock.withLock { gateOwner == me }
    }

    private func leaveGate(_ me: UInt, mutated: Bool) {
        // Not `withLock`, as in `close`.
        // `lock()`, not `lock(as: me)`: a queued `writeInOrder` runs this, and the lock must
        // see the thread that runs it.
        lock.lock()
        if mutated { isMutating = false }
        gateDepth -= 1
        guard gateDepth == 0 else {
            lock.unlock()
            return
        }
        if handed.isEmpty {
            gateOwner = 0
            lock.broadcast()
            lock.unlock()
            return
        }
        // Commits were handed over: the owner delivers them, one round each, before it
        // leaves the gate (the follower runs `deliverHanded` after each round).
        gateDepth = 1
        handedDelivery = .requested
        drainTicks &+= 1
        let tick = drainTicks
        lock.unlock()
        drainTick.value = tick
    }

    /// Delivers the next handed-over commit (after the round that published the previous one),
    /// or leaves the gate when they are all delivered. Run by the follower, after a round, on
    /// the delivering thread: does nothing unless it is the owner delivering handed commits.
    private func deliverHanded() {
        let me = _Lock.currentThread
        lock.lock()
        guard gateOwner == me else {
            lock.unlock()
            return
        }
        switch handedDelivery {
        case .idle:
            lock.unlock()
        case .published:
            handedDelivery = .idle
            lock.unlock()
            leaveGate(me, mutated: false)
        case .requested:
            let snapshot = unsafeDowncast(handed.removeFirst(), to: _Snapshot<State>.self)
            handedDelivery = .published
            drainTicks &+= 1
            let tick = drainTicks
            lock.unlock()
            // A round of its own: this runs after the previous round's reactions.
            writeInOrder { [self, drainTick] in
                let (hooks, seen) = currentPublishHooks
                publish(snapshot, hooks: hooks, seen: seen, isRouted: hasFields)
                drainTick.value = tick
            }
        }
    }

    /// Makes the follower, if the store has none yet (a commit is first handed over).
    private func ensureFollower() {
        if lock.withLock({ follower != nil }) { return }
        let made = startFollower()
        let extra = lock.withLock { () -> Subscription? in
            if follower != nil || isEnded { return made }
            follower = made
            return nil
        }
        extra?.cancel()
    }

    // MARK: Reading

    /// The core node holding the value at `keyPath`, cut off by equality: a reader of it runs
    /// again only when that value changed. One per key path, kept for the store's life.
    ///
    /// It depends on the whole state, or, when `keyPath` reads through a field of a
    /// ``StateFields`` state, on that field's route only: a commit that leaves the field alone
    /// does not look at it.
    func slice<Value: Equatable & Sendable>(_ keyPath: KeyPath<State, Value>) -> Computed<Value> {
        slice(keyPath) { Computed(describedBy: $0, $1) }
    }

    /// ``slice(_:)``, with its node made by `make` (from its name and derivation): called from
    /// inlinable code with `{ Computed(describedBy: $0, $1) }`, the node's evaluation is compiled for
    /// the concrete value type. Made here, in generic code, it looked up the metadata of
    /// `Value?` three times per evaluation, about 300 instructions each. The node is made once
    /// per key path: the first caller's maker makes it (the internal callers, a binding's or a
    /// dispatcher's, pass the generic one), and what it computes is the same either way.
    @usableFromInline
    func slice<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value>,
        make: (@escaping @Sendable () -> String, @escaping @Sendable () -> Value) -> Computed<Value>
    ) -> Computed<Value> {
        if let existing = lock.withLock({ slices[keyPath] }) {
            return unsafeDowncast(existing, to: Computed<Value>.self)
        }
        let read = _Snapshot<State>.reader(of: keyPath)
        let created: Computed<Value>
        // Named after the key path only when a trace or a diagnostic reads the name: describing
        // a key path costs microseconds (75 for a subscript on Linux), many times the node. A
        // logger names what each commit woke, so with one the label is made now.
        let path = _AnyKeyPath(keyPath: keyPath)
        let label = logger == nil ? "" : "\(keyPath)"
        let describe: @Sendable () -> String
        if logger == nil {
            describe = { [name] in "\(name)\(path.keyPath)" }
        } else {
            describe = { label }
        }
        if let route = route(of: keyPath) {
            let logs = logger != nil
            created = make(describe) { [tick = route.tick, weak self] in
                // The snapshot of the field's last change: the field, and so the value at
                // `keyPath`, is the same in the published one.
                let snapshot = unsafeDowncast(tick.value, to: _Snapshot<State>.self)
                if logs { self?.noteWake(.derived(label), snapshot.version) }
                return read(snapshot)
            }
        } else if logger != nil {
            created = make(describe) { [node, weak self] in
                let snapshot = node.value
                self?.noteWake(.derived(label), snapshot.version)
                return read(snapshot)
            }
        } else {
            created = make(describe) { [node] in read(node.value) }
        }
        let slice = lock.withLock { () -> AnyObject in
            if let existing = slices[keyPath] { return existing }
            slices[keyPath] = created
            return created
        }
        return unsafeDowncast(slice, to: Computed<Value>.self)
    }

    /// The route of the field `keyPath` reads through, made the first time (`nil` for a plain
    /// state, or a key path under no field).
    private func route(of keyPath: AnyKeyPath) -> _FieldRoute? {
        guard let fields, let index = fields.field(containing: keyPath) else { return nil }
        if let existing = lock.withLock({ routeOfField[index] }) { return existing }
        let initial = untracked { node.value }
        let made = _FieldRoute(
            fields.fields[index], starting: initial, name: "\(name) field \(fields.fields[index].keyPath)")
        let (route, routed) = lock.withLock { () -> (_FieldRoute, _AnySnapshot?) in
            if let existing = routeOfField[index] { return (existing, nil) }
            routeOfField[index] = made
            routes.append(made)
            return (made, lastRouted)
        }
        // A commit compared the routes after `initial` was read and before this one was
        // added: catch up with it (a later one compares this route too).
        if let routed, routed.version > initial.version { made.tick.value = routed }
        return route
    }

    /// Appends `step` to the middleware: every commit that closes after this returns runs it
    /// (lock not held).
    func addMiddleware(_ step: StoreMiddleware<State>) {
        lock.withLock { middlewareSteps.append(step) }
        _ = _ripple_once_word_publish(hasMiddleware, 1)
    }

    /// The publish hooks added so far, and how many were added (lock not held).
    private var currentPublishHooks: (hooks: _PublishHooks<State>?, added: UInt) {
        lock.withLock { (publishHooks, _ripple_counter_load(hooksAdded)) }
    }

    /// Runs the hooks again for the published state, from `old`: a registry added while a
    /// publish was under way (see `hooksAdded`) started its nodes from the state published
    /// before, and this brings them up to date. Hooks that had run already find their nodes
    /// up to date (each drops a write of a version it has) and write nothing.
    @inline(never)
    private func rerunHooks(from old: _Snapshot<State>) {
        guard let hooks = currentPublishHooks.hooks else { return }
        let current = untracked { node.value }
        batch { hooks.run(old, current) }
    }

    /// The registry kept under `key`, made by `make` (and given a publish hook, with its idle
    /// check if it has one: see ``_PublishHooks/areIdle``) the first time.
    func registry<Registry: AnyObject>(
        _ key: AnyKeyPath, make: () -> Registry,
        hook: @escaping @Sendable (Registry) -> _PublishHooks<State>.Hook,
        idleWhen isIdle: (@Sendable (Registry) -> _PublishHooks<State>.IdleCheck)? = nil
    ) -> Registry {
        lock.lock()
        if let existing = entityRegistries[key] {
            lock.unlock()
            return unsafeDowncast(existing, to: Registry.self)
        }
        let created = make()
        entityRegistries[key] = created
        publishHooks = _PublishHooks(appending: hook(created), idleWhen: isIdle?(created), to: publishHooks)
        _ripple_counter_increment(hooksAdded)
        lock.unlock()
        return created
    }

    func existingRegistry<Registry: AnyObject>(_ key: AnyKeyPath) -> Registry? {
        lock.withLock { entityRegistries[key] as? Registry }
    }

    // MARK: Lifetime

    /// Registers what to do when the store is released; returns a key for ``forget(_:)``, or
    /// `nil` (having run `ending`) when the store is already gone.
    func onEnd(_ ending: @escaping @Sendable () -> Void) -> Int? {
        let id = lock.withLock { () -> Int? in
            if isEnded { return nil }
            nextEndingID += 1
            endings[nextEndingID] = ending
            return nextEndingID
        }
        if id == nil { ending() }
        return id
    }

    func forget(_ id: Int) {
        let removed = lock.withLock { endings.removeValue(forKey: id) }
        _ = removed  // released with the lock released
    }

    /// The store was released: ends every subscription and task it owns.
    func end() {
        let follower = lock.withLock { () -> Subscription? in
            defer { self.follower = nil }
            return self.follower
        }
        follower?.cancel()
        let endings = lock.withLock { () -> [@Sendable () -> Void] in
            isEnded = true
            defer { self.endings = [:] }
            return self.endings.sorted { $0.key < $1.key }.map(\.value)
        }
        for ending in endings.reversed() { ending() }
        sinks.end()
        // Commits waiting for the gate are dropped now.
        lock.withLock { lock.broadcast() }
    }

    /// Ties `subscription` to the store's life: it ends when the store is released, and the
    /// returned subscription cancels it (and forgets it) when cancelled or released.
    func own(_ subscription: Subscription, also ending: (@Sendable () -> Void)? = nil) -> Subscription {
        let id = onEnd {
            subscription.cancel()
            ending?()
        }
        return Subscription { [weak self] in
            subscription.cancel()
            ending?()
            if let id { self?.forget(id) }
        }
    }

    // MARK: Logging

    func noteWake(_ wake: StoreLog.Wake, _ version: UInt64) {
        guard hasLogger else { return }
        lock.withLock {
            // Only while the commit is being delivered: a later lazy read woke nothing.
            if woken[version] != nil { woken[version]!.append(wake) }
        }
    }
}

extension _StoreCore {
    var waitName: String { name }

    func blocker(of waiter: UInt) -> (thread: UInt, canHandOver: Bool) {
        lock.withLock {
            if handoverMutator != 0, handoverMutator != waiter { return (handoverMutator, false) }
            if gateOwner != 0, gateOwner != waiter { return (gateOwner, !isMutating) }
            return (0, false)
        }
    }

    func wakeToRecheck() {
        lock.withLock {
            recheckEpoch &+= 1
            lock.broadcast()
        }
    }
}
