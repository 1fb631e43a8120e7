import Ripple

/// One committed state of a ``MainActorStore``, as its graph node holds it: the class a
/// `Changes` holds, so that a subscriber's change is made without copying the state, and the
/// node's value is copied with one retain, where a generic struct was copied through its
/// value witnesses. It never leaves the main actor (its state need not be `Sendable`): only
/// the store's main-actor code makes and reads one. Its version is 0 for the initial state,
/// one more per commit that changed something.
typealias _MainActorSnapshot<State> = _Snapshot<State>

/// Everything a ``MainActorStore`` is, without the store: derived values and subscriptions
/// hold this (or its node), so none of them keeps the store alive.
///
/// The state lives in one core node, `node`, holding the latest published snapshot; every
/// reader (key-path slices, derived values, subscribers) is a main-actor node or reaction
/// reading it. Everything here runs on the main actor, so a commit is atomic without a lock:
/// the mutation runs on `latest` and nothing else can run meanwhile. A commit made while the
/// graph delivers (from a subscriber) is applied to `latest` at once and published after the
/// current round, by `writeInOrder`, like any write made in a reaction.
@MainActor @usableFromInline
final class _MainActorStoreCore<State: Equatable> {
    /// The published state. Only commits that changed the state write it, in order, on the
    /// main actor, so it needs no equality. A `Stored<_AnySnapshot>`, as `Store`'s is: its
    /// write is compiled once, in Ripple, for that type; a `Stored<_Snapshot<State>>` was
    /// written through unspecialized generic code (a lookup of `Optional<_Snapshot<State>>`'s
    /// metadata, value witnesses and a generic swap: about 510 instructions a commit).
    let node: _SnapshotNode<State>
    let name: String
    /// The latest committed snapshot, published or about to be (inside a delivery).
    private(set) var latest: _MainActorSnapshot<State>
    /// Set while a mutation runs: a commit then is a mistake.
    private var isMutating = false
    /// One main-actor node per key path read, kept for the store's life.
    private var slices: [AnyKeyPath: AnyObject] = [:]
    /// The fields of a ``StateFields`` state (`nil` for a plain state), and for each one some
    /// key-path reader reads through, its route: a node holding the snapshot of the field's last
    /// change, which those readers depend on instead of `node` (as ``Store``'s, see
    /// `_FieldRoutes`; on the main actor, a commit compares them when it publishes).
    private let fields = _FieldRoutes<State>.ofState()
    private var routeOfField: [Int: Stored<_MainActorSnapshot<State>>] = [:]
    private var routes: [(field: StateField<State>, tick: Stored<_MainActorSnapshot<State>>)] = [] {
        didSet { hasRoutes = !routes.isEmpty }
    }
    /// `!routes.isEmpty`, tested on every commit without looking up the routes' metadata.
    private var hasRoutes = false
    /// The closure selectors (``MainActorStore/select(file:line:_:)``), once one was made.
    var selectionList: _Selections<State>? {
        didSet { hasSelections = selectionList != nil }
    }
    /// `selectionList != nil`, tested on every commit without looking up its metadata.
    private var hasSelections = false
    /// `_Snapshot<State>`, kept: a commit allocates its snapshot through it, where naming the
    /// type in this unspecialized code would look up its metadata every time.
    private let snapshotType = _Snapshot<State>.self
    /// The subscriptions that end with the store.
    nonisolated let endings = _StoreEndings()
    /// The plain subscribers (`sinkState`), and the one main-actor reaction that delivers them,
    /// as a ``Store``'s (``_StoreSinks``).
    nonisolated let sinks = _StoreSinks()
    /// The middleware steps, in the order they were added (``MainActorStore/add(middleware:)``).
    var middleware: [StoreMiddleware<State>] = [] {
        didSet { hasMiddleware = !middleware.isEmpty }
    }
    /// `!middleware.isEmpty`, tested on every commit without looking up the steps' metadata.
    private var hasMiddleware = false
    /// A ``DerivedFields`` state's update, run in every commit (`nil` for any other state).
    private let derivesFields: ((inout State, Changes<State>) -> Void)?
    /// `derivesFields != nil`, tested on every commit without looking up the closure's type.
    private let hasDerivedFields: Bool

    init(initialState: State, name: String) {
        // As `Store`'s: the initial state is published with its derived fields up to date.
        let derivesFields = _derivedFieldsUpdate(for: State.self)
        let initial = _initialState(initialState, derivingFieldsWith: derivesFields)
        let snapshot = _MainActorSnapshot(
            state: initial, version: 0, transaction: Transaction(name: "initial state"))
        latest = snapshot
        self.name = name
        self.derivesFields = derivesFields
        hasDerivedFields = derivesFields != nil
        node = _SnapshotNode(publishingEveryWrite: snapshot, name: name)
    }

    @usableFromInline
    func commit<Result, Failure: Error>(
        _ transaction: consuming Transaction,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Without a tracer, directly: the closure `traceCommit` takes cost its context and a
        // generic call (as in `_StoreCore.commit`).
        guard _commitsAreTraced() else { return try commitUntraced(transaction, mutation) }
        let traced = copy transaction
        return try traceCommit(of: name, transaction: traced.description) { () throws(Failure) -> Result in
            try commitUntraced(traced, mutation)
        }
    }

    /// ``commit(_:_:)``'s work, apart from its tracing.
    private func commitUntraced<Result, Failure: Error>(
        _ transaction: consuming Transaction,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if isMutating {
            // `fatalError`, not `preconditionFailure`: optimized builds drop a precondition's message.
            fatalError(
                "RippleStore: \(transaction) on \(name) was made inside the mutation of another commit to the same store. A mutation changes the state it is given; commit again after it returns."
            )
        }
        isMutating = true
        var transaction = transaction
        var state = latest.state
        let result: Result
        do throws(Failure) {
            result = try mutation(&state, &transaction)
        } catch {
            isMutating = false
            throw error
        }
        // Still `isMutating`: neither the derived fields nor a middleware step may commit.
        if hasDerivedFields { deriveFields(of: &state, transaction) }
        if hasMiddleware { applyMiddleware(to: &state, &transaction) }
        isMutating = false
        // `!(==)`, not `!=`: see `_StoreCore.close`.
        guard !(state == latest.state) else { return result }
        let snapshot = snapshotType.init(
            state: consume state, version: latest.version &+ 1, transaction: consume transaction)
        latest = snapshot
        // At once outside reactions; queued after the current round inside one (a commit from
        // a subscriber), so every subscriber sees every commit, in order.
        if _writesApplyInPlace() {
            // `writeInOrder` would run it at once: skip its closure and its batch.
            publish(snapshot)
        } else {
            publishInOrder(snapshot)
        }
        return result
    }

    /// `deliver`, as a ``_Sink`` calls it: without a check of the main actor per subscriber
    /// (`MainActor.assumeIsolated` cost about 300 instructions each). The sinks of a main-actor
    /// store are called only on the main actor: by its dispatching reaction, whose body runs
    /// there (debug builds check so once per run), and by `subscribe`, which is isolated to it.
    /// Debug builds check each call.
    nonisolated static func onMainActor(
        _ deliver: @escaping @MainActor (_AnySnapshot?, _AnySnapshot) -> Void
    ) -> @Sendable (_AnySnapshot?, _AnySnapshot) -> Void {
        // The same closure, its isolation dropped from its type: a main-actor function and a
        // plain one have one representation.
        let unchecked = unsafeBitCast(deliver, to: (@Sendable (_AnySnapshot?, _AnySnapshot) -> Void).self)
        #if DEBUG
        return { previous, current in
            MainActor.preconditionIsolated("RippleStore: a main-actor store's subscriber was called off the main actor")
            unchecked(previous, current)
        }
        #else
        return unchecked
        #endif
    }

    /// `receive` with its isolation dropped from its type, for a caller that calls it only on the
    /// main actor (see the other `onMainActor(_:)`). Debug builds check each call.
    nonisolated static func onMainActor<Value>(
        _ receive: @escaping @MainActor (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        let unchecked = unsafeBitCast(receive, to: (@Sendable (Value) -> Void).self)
        #if DEBUG
        return { value in
            MainActor.preconditionIsolated("RippleStore: a main-actor subscriber was called off the main actor")
            unchecked(value)
        }
        #else
        return unchecked
        #endif
    }

    /// Adds a plain subscriber, delivered by the store's one dispatching reaction, in
    /// subscription order (see ``_StoreSinks``). Made inside a reaction (or a
    /// ``ReactionScope``), it is cancelled with it, as a reaction made there would be.
    func subscribe(_ sink: _Sink, dropsFirst: Bool) -> Subscription {
        let subscription = endings.own(Subscription { [sinks] in sinks.remove(sink) })
        guard _adoptByCurrentOwner(subscription) else { return subscription }
        let node = node
        // Ended with the store (`MainActorStore.deinit` ends `sinks`).
        sinks.ensureDispatcher {
            // Named so that traces say which store's subscribers a commit woke.
            _observeOnMainActor(tracedAs: "\(name) subscribers") { [sinks, node] in
                sinks.deliver(node.value, wake: nil)
            }
        }
        sinks.subscribe(sink, current: { untracked { node.value } }, dropsFirst: dropsFirst, noteWake: nil)
        return subscription
    }

    /// Runs the middleware on `state` (apart from `commit`, which would otherwise look up the
    /// steps' metadata on every commit, in this unspecialized code).
    @inline(never)
    private func applyMiddleware(to state: inout State, _ transaction: inout Transaction) {
        _applyMiddleware(
            middleware, to: &state, previous: latest.state, &transaction, derivesFieldsAgain: hasDerivedFields
        ) { state, transaction in deriveFields(of: &state, transaction) }
    }

    /// Brings the derived fields of `state`, the commit's mutated state, up to date, with the
    /// changes from the latest state (apart from `commit`, as ``applyMiddleware(to:_:)``).
    @inline(never)
    private func deriveFields(of state: inout State, _ transaction: Transaction) {
        guard let derivesFields else { return }
        let current = snapshotType.init(state: state, version: latest.version &+ 1, transaction: transaction)
        derivesFields(&state, Changes(_previous: latest, current: current))
    }

    /// Publishes `snapshot` after the current round, on this thread, the main one (apart from
    /// `commit`, as ``applyMiddleware(to:_:)``).
    @inline(never)
    private func publishInOrder(_ snapshot: _MainActorSnapshot<State>) {
        let core = _MainActorOnly(value: self)
        writeInOrder { MainActor.assumeIsolated { core.value.publish(snapshot) } }
    }

    /// Publishes `snapshot`: the node, then the routes of the fields it changed, read now, so
    /// that a route made while the commit waited to be published (inside a delivery) is
    /// compared too.
    private func publish(_ snapshot: _MainActorSnapshot<State>) {
        guard hasRoutes || hasSelections else {
            node.value = snapshot
            return
        }
        publishRouted(snapshot)
    }

    /// ``publish(_:)`` when readers read through fields or selectors select from the state
    /// (apart from it, as ``applyMiddleware(to:_:)``): the node, the changed fields' routes and
    /// the selectors' changed values in one batch, so that a reader of the whole state and of
    /// a field or a selector sees one state and runs once. A commit that changes no field a
    /// reader reads through, with no selector, writes the node alone.
    @inline(never)
    private func publishRouted(_ snapshot: _MainActorSnapshot<State>) {
        let previous = untracked { node.value }
        let changed = routes.filter { !$0.field.isEqual(previous.state, snapshot.state) }
        // Selectors all released: published as if there had never been one.
        let selections = selectionList.flatMap { $0.isEmpty ? nil : $0 }
        guard !changed.isEmpty || selections != nil else {
            node.value = snapshot
            return
        }
        batch {
            node.value = snapshot
            for route in changed { route.tick.value = snapshot }
            selections?.publish(snapshot.state, version: snapshot.version, after: previous.version)
        }
    }

    /// The main-actor node holding the value at `keyPath`, cut off by equality: a reader of it
    /// runs again only when that value changed. One per key path, kept for the store's life.
    func slice<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> MainActorComputed<Value> {
        slice(keyPath) { MainActorComputed(describedBy: $0, $1) }
    }

    /// ``slice(_:)``, with its node made by `make` (from its name and derivation): called from
    /// inlinable code with `{ MainActorComputed(describedBy: $0, $1) }`, the node's evaluation is
    /// compiled for the concrete value type (see `_StoreCore.slice(_:make:)`).
    @usableFromInline
    func slice<Value: Equatable>(
        _ keyPath: KeyPath<State, Value>,
        make: (@escaping @Sendable () -> String, @escaping @MainActor () -> Value) -> MainActorComputed<Value>
    ) -> MainActorComputed<Value> {
        if let existing = slices[keyPath] {
            return unsafeDowncast(existing, to: MainActorComputed<Value>.self)
        }
        let created: MainActorComputed<Value>
        // Named after the key path when first read (see `_StoreCore.slice(_:make:)`).
        let path = _AnyKeyPath(keyPath: keyPath)
        let describe: @Sendable () -> String = { [name] in "\(name)\(path.keyPath)" }
        // A stored property read in place, as `Store`'s slices read (see `_Snapshot.reader(of:)`).
        let read = _MainActorSnapshot<State>.reader(of: keyPath)
        if let tick = route(of: keyPath) {
            // The snapshot of the field's last change: the value at `keyPath` is the same in the
            // published one.
            created = make(describe) { read(tick.value) }
        } else {
            let node = node
            created = make(describe) { read(node.value) }
        }
        slices[keyPath] = created
        return created
    }

    /// The route of the field `keyPath` reads through, made the first time (`nil` for a plain
    /// state, or a key path under no field). Every commit published from now on compares it.
    private func route(of keyPath: AnyKeyPath) -> Stored<_MainActorSnapshot<State>>? {
        guard let fields, let index = fields.field(containing: keyPath) else { return nil }
        if let existing = routeOfField[index] { return existing }
        let node = node
        let made = Stored(untracked { node.value }, name: "\(name) field \(fields.fields[index].keyPath)")
        routeOfField[index] = made
        routes.append((fields.fields[index], made))
        return made
    }
}

/// What ends with a store: its subscriptions. Cancelled from the store's `deinit`, which may run
/// on any thread, so it is guarded by a lock (held only to add, remove or take them).
final class _StoreEndings: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = _Lock()
    private var subscriptions: [Int: Subscription] = [:]
    private var nextID = 0
    private var isEnded = false

    /// Ties `subscription` to the store's life: it is cancelled when the store is released, and
    /// the returned subscription cancels it (and forgets it) when cancelled or released.
    func own(_ subscription: Subscription) -> Subscription {
        let id = lock.withLock { () -> Int? in
            if isEnded { return nil }
            nextID += 1
            subscriptions[nextID] = subscription
            return nextID
        }
        guard let id else {
            subscription.cancel()
            return subscription
        }
        return Subscription { [weak self] in
            subscription.cancel()
            guard let self else { return }
            let removed = lock.withLock { subscriptions.removeValue(forKey: id) }
            _ = removed  // released with the lock released
        }
    }

    /// The store was released: ends every subscription it owns, the latest first.
    func end() {
        let owned = lock.withLock { () -> [Subscription] in
            isEnded = true
            defer { subscriptions = [:] }
            return subscriptions.sorted { $0.key > $1.key }.map(\.value)
        }
        for subscription in owned { subscription.cancel() }
    }
}

/// A value handed through a `Sendable` channel (an `Event`) that only ever runs on the main
/// actor: sent by main-actor code, delivered synchronously on the sending thread (or queued on
/// it, after the current delivery), received by main-actor code.
struct _MainActorOnly<Value>: @unchecked Sendable {
    let value: Value
}

/// State owned by one main-actor reaction's body (never run concurrently with itself).
@MainActor
final class _MainActorBox<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
