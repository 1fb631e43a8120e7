/// A container of one state value, changed only by commits, read by subscribers, derived
/// values and fine-grained readers (Verge's `Store`).
///
/// Subclass it to give the state its operations, or use it as it is:
///
/// ```swift
/// struct AppState: Equatable { var name = ""; var count = 0 }
/// enum AppActivity { case didSendMessage }
///
/// final class AppStore: Store<AppState, AppActivity>, @unchecked Sendable {
///     func increment() { commit { $0.count += 1 } }
/// }
///
/// let store = AppStore(initialState: AppState())
/// let subscription = store.sinkState { changes in
///     changes.ifChanged(\.name) { name in label.text = name }
/// }
/// let count = store.derived(\.count)                                   // a core node
/// let title = Computed { "\(store.state.name) (\(store.state.count))" } // tracks name and count
/// ```
///
/// Swift 6 asks a subclass of this `@unchecked Sendable` class to restate the conformance, as
/// above. Without a subclass, extend a specialized store instead:
/// `typealias AppStore = Store<AppState, AppActivity>` and
/// `extension AppStore { func increment() { commit { $0.count += 1 } } }`.
///
/// A store is made of core nodes: its state is one `Stored` value, its key paths and derived
/// values are `Computed` values, its subscribers are reactions. So every reader sees a
/// consistent state and runs once per commit, and a store may be used from any thread.
///
/// **Commits** (`commit(_:file:line:_:)`) are
/// applied one at a time, in the order they start, and each is delivered to the store's
/// synchronous subscribers before the next one is applied: a commit from another thread waits
/// for the current one's delivery. A commit made inside a subscriber is applied at once (it
/// returns its result, and ``currentState`` shows it on that thread at once) but delivered after
/// the current delivery, to everyone, in order.
/// Every subscriber receives every commit once, in version order, except inside a
/// `batch { }`: the commits made in one batch are applied together when it ends and
/// reach each subscriber as one change, from the state before the batch to the state after it
/// (`Changes.version` then moves by the number of commits).
/// Do not block a subscriber on another thread that commits to the same store.
///
/// **Stores that commit to each other do not hang.** When a commit would wait for a store whose
/// delivering thread waits, through any chain of stores, for the committing thread (two stores
/// kept in sync by subscribers that commit to each other, from two threads), it does not wait:
/// its mutation runs at once on the latest state, and the commit is handed to the delivering
/// thread, which delivers it after its current delivery, once and in version order. The commit
/// returns before its subscribers have run. Only a commit made inside the *mutation* of another
/// store's commit cannot be handed over; such a cycle stops the program with a message naming
/// the stores.
///
/// **Lifetime.** Subscriptions, derived values and tasks do not keep the store alive. When the
/// store is released, its subscriptions end and its tasks are cancelled; derived values keep
/// their last value, and a ``StoreBinding``'s writes are dropped.
open class Store<State: Equatable & Sendable, Activity: Sendable>: @unchecked Sendable {
    @usableFromInline let _core: _StoreCore<State>
    let _activities = Event<Activity>()
    let _tasks = _StoreTasks()
    /// This store, held weakly, as the source of its derived values and sinks (for
    /// ``Ripple/Subscription/storeWhileSourceActive()``): one per store, which they share.
    @usableFromInline let _sourceStores: _SourceStores

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - initialState: The state before any commit. It must be a value type: a class's
    ///     changes could not be told apart from its identity.
    ///   - name: The store's name in logs and diagnostics; the type's name by default.
    ///   - middleware: Steps every commit goes through after its mutation, in order.
    ///   - logger: Receives each commit and activity.
    ///
    /// - Precondition: `State` is not a class.
    public init(
        initialState: State,
        name: String? = nil,
        middleware: [StoreMiddleware<State>] = [],
        logger: (any StoreLogger)? = nil
    ) {
        _core = Self._makeCore(
            initialState: initialState, name: name ?? String(describing: Self.self), middleware: middleware,
            logger: logger)
        _sourceStores = _SourceStores([_DerivedSource(_core)])
        _tasks.attach(to: _core)
    }

    /// Creates a store around a core made by ``_makeCore(initialState:name:middleware:logger:)``
    /// (a reducer store makes its core first, to give it to its action queue).
    init(_core core: _StoreCore<State>) {
        _core = core
        _sourceStores = _SourceStores([_DerivedSource(core)])
        _tasks.attach(to: _core)
    }

    /// A store's core, after checking that the state is a value type.
    static func _makeCore(
        initialState: State,
        name: String,
        middleware: [StoreMiddleware<State>],
        logger: (any StoreLogger)?
    ) -> _StoreCore<State> {
        // `fatalError`, not `precondition`: optimized builds drop a precondition's message.
        if State.self is AnyObject.Type {
            fatalError(
                "RippleStore: \(name)'s state type \(State.self) is a class. A store's state must be a value type (a struct or an enum): a store publishes a new value on every commit and tells changes apart by comparing the old value with the new one, which a shared instance cannot do."
            )
        }
        return _StoreCore(
            initialState: initialState,
            name: name,
            middleware: middleware,
            logger: logger,
            derivesFields: _derivedFieldsUpdate(for: State.self)
        )
    }

    deinit {
        _core.end()
    }

    /// The store's name in logs and diagnostics.
    public var name: String { _core.name }

    /// The state, read one key path at a time: `store.state.count` inside a `Computed`, a
    /// reaction or a SwiftUI body tracks `count` only.
    ///
    /// ```swift
    /// let title = Computed { "\(store.state.name) (\(store.state.count))" }
    /// ```
    public var state: TrackedState<State> {
        TrackedState(source: _core)
    }

    /// The whole current state. Reading it in a reader tracks every commit; prefer ``state``'s
    /// key paths there.
    ///
    /// Outside a reader, it shows every commit made so far on the calling thread, at once: a
    /// subscriber that commits reads its commit back here before that commit is delivered
    /// (the deliveries still come one at a time, in order). A reader (a `Computed`, a
    /// reaction) sees the state of the round it runs in.
    ///
    /// - Complexity: O(1).
    public var currentState: State {
        _core.currentSnapshot.state
    }

    /// The number of commits that changed the state so far (0 for the initial state). Reading
    /// it in a reader tracks every commit; outside a reader it counts every commit made so far
    /// on the calling thread, as ``currentState`` shows them.
    public var version: UInt64 {
        _core.currentSnapshot.version
    }

    /// Changes the state with `mutation`, atomically, and delivers the result to every
    /// subscriber; returns what `mutation` returned.
    ///
    /// `mutation` runs once, on the latest state, while no other commit to this store runs.
    /// If it throws, the state is left as it was and the error is rethrown. If the state it
    /// leaves is equal to the one it got (after ``DerivedFields`` and middleware), nothing is
    /// published or delivered.
    ///
    /// ```swift
    /// final class AppStore: Store<AppState, Never>, @unchecked Sendable {
    ///     func rename(_ name: String) throws {
    ///         try commit("rename") { state in
    ///             guard !name.isEmpty else { throw RenameError.empty }
    ///             state.name = name
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The commit's name, for loggers and subscribers (``Changes/transaction``).
    ///   - file: The file that commits, named in logs and diagnostics.
    ///   - line: The line that commits, named in logs and diagnostics.
    ///   - mutation: Changes the state in place. It must not commit to this store.
    /// - Returns: What `mutation` returned.
    /// - Complexity: One comparison of the state, plus the delivery to the readers that depend
    ///   on what changed.
    @discardableResult
    public func commit<Result, Failure: Error>(
        _ name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutation: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try _core.commit(Transaction(name: name, file: file, line: line)) { (state, _) throws(Failure) -> Result in
            try mutation(&state)
        }
    }

    /// Changes the state with `mutation`, which may also fill in the commit's ``Transaction``
    /// (its name and typed metadata); otherwise like the `commit(_:file:line:_:)` whose mutation
    /// takes only the state.
    ///
    /// ```swift
    /// store.commit { state, transaction in
    ///     transaction[Origin.self] = "pull to refresh"
    ///     state.isLoading = true
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The commit's name.
    ///   - file: The file that commits.
    ///   - line: The line that commits.
    ///   - mutation: Changes the state and the transaction in place.
    /// - Returns: What `mutation` returned.
    @discardableResult
    public func commit<Result, Failure: Error>(
        _ name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try _core.commit(Transaction(name: name, file: file, line: line), mutation)
    }
}
