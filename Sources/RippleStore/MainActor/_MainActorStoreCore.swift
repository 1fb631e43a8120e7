import Ripple

/// One committed state of a ``MainActorStore``, as its graph node holds it. Not `Sendable`:
/// it never leaves the main actor.
struct _MainActorSnapshot<State> {
    let state: State
    /// 0 for the initial state, one more per commit that changed something.
    let version: UInt64
    let transaction: Transaction
}

/// Everything a ``MainActorStore`` is, without the store: derived values and subscriptions
/// hold this (or its node), so none of them keeps the store alive.
///
/// The state lives in one core node, `node`, holding the latest published snapshot; every
/// reader (key-path slices, derived values, subscribers) is a main-actor node or reaction
/// reading it. Everything here runs on the main actor, so a commit is atomic without a lock:
/// the mutation runs on `latest` and nothing else can run meanwhile. A commit made while the
/// graph delivers (from a subscriber) is applied to `latest` at once and published after the
/// current round, by `writeInOrder`, like any write made in a reaction.
@MainActor
final class _MainActorStoreCore<State: Equatable> {
    /// The published state. Only commits that changed the state write it, in order, on the
    /// main actor, so it needs no equality.
    let node: Stored<_MainActorSnapshot<State>>
    let name: String
    /// The latest committed snapshot, published or about to be (inside a delivery).
    private(set) var latest: _MainActorSnapshot<State>
    /// Set while a mutation runs: a commit then is a mistake.
    private var isMutating = false
    /// One main-actor node per key path read, kept for the store's life.
    private var slices: [AnyKeyPath: AnyObject] = [:]
    /// The subscriptions that end with the store.
    nonisolated let endings = _StoreEndings()
    /// The middleware steps, in the order they were added (``MainActorStore/add(middleware:)``).
    var middleware: [StoreMiddleware<State>] = []

    init(initialState: State, name: String) {
        let snapshot = _MainActorSnapshot(
            state: initialState, version: 0, transaction: Transaction(name: "initial state"))
        latest = snapshot
        self.name = name
        node = Stored(snapshot, name: name)
    }

    func commit<Result, Failure: Error>(
        _ transaction: Transaction,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try traceCommit(of: name, transaction: transaction.description) { () throws(Failure) -> Result in
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
            // Still `isMutating`: a middleware step must not commit either.
            for step in middleware {
                step.apply(&state, latest.state, &transaction)
            }
            isMutating = false
            guard state != latest.state else { return result }
            let snapshot = _MainActorSnapshot(state: state, version: latest.version &+ 1, transaction: transaction)
            latest = snapshot
            // At once outside reactions; queued after the current round inside one (a commit from
            // a subscriber), so every subscriber sees every commit, in order.
            let node = node
            writeInOrder { node.value = snapshot }
            return result
        }
    }

    /// The main-actor node holding the value at `keyPath`, cut off by equality: a reader of it
    /// runs again only when that value changed. One per key path, kept for the store's life.
    func slice<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> MainActorComputed<Value> {
        if let existing = slices[keyPath] {
            return unsafeDowncast(existing, to: MainActorComputed<Value>.self)
        }
        let node = node
        let created = MainActorComputed(name: "\(name)\(keyPath)") { node.value.state[keyPath: keyPath] }
        slices[keyPath] = created
        return created
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
