import Ripple

/// A store driven by a ``Reducer``: actions sent to it are reduced one at a time, in order,
/// into commits, and the effects they return run afterwards (OneWay's `Store`).
///
/// It is a ``Store``: subscriptions (`sinkState`, `Changes` with `ifChanged`), derived values,
/// fine-grained reads (`store.state.number` in a `Computed`, a reaction or a SwiftUI body),
/// middleware and loggers all work as they do for commits, and each reduced action is one
/// commit whose ``Transaction/action`` is the action.
///
/// ```swift
/// let store = ReducerStore(reducer: Counter(), initialState: Counter.State())
/// let subscription = store.sinkState { changes in
///     changes.ifChanged(\.number) { print("number:", $0) }
/// }
/// store.send(.increment)      // prints "number: 1"
/// store.send(.twice)          // prints "number: 2", then "number: 3"
/// ```
///
/// **From any thread.** `send` may be called from any thread: actions are reduced one at a
/// time, first in first out. The state after `send` returns reflects the action and what its
/// effects sent synchronously (``Effect/send(_:)``), with one exception: an action sent
/// while this store delivers a change on the same thread (from a subscriber) is queued and
/// reduced after the current one, never re-entrantly. Stores whose subscribers send to each
/// other do not hang: a `send` that would wait for a store whose reducing thread waits, through
/// any chain of stores, for the sending thread, leaves its action queued for that thread and
/// returns at once.
///
/// **`send` returns when its own work is done.** It reduces what was queued before its action,
/// its action, what its effect sent at once (``Effect/send(_:)``, a `create` body sending as it
/// starts) and what this store's subscribers sent on its thread meanwhile; actions queued after
/// its own (an effect's stream) are left to another thread or a task. An effect's asynchronous
/// `send` waits while about a thousand actions are queued, so a stream goes at the store's pace
/// and the queue stays bounded; a synchronous flood (an `Effect.create` continuation sending
/// 100 000 actions faster than the store reduces them) stops the program with a message naming
/// the store. Do not block a subscriber on another
/// thread that sends to the same store. For a store used from the main actor only, with
/// every action reduced there, use ``ViewStore``.
///
/// **Time.** Debounced and throttled effects wait on the clock given to ``init(reducer:initialState:name:clock:middleware:logger:onEffectError:)``;
/// tests pass a test clock (RippleTesting's `TestClock`) and move it.
///
/// **Lifetime.** Effects do not keep the store alive; releasing the store cancels them.
public final class ReducerStore<R: Reducer>: Store<R.State, Never>, @unchecked Sendable
where R: Sendable, R.State: Sendable, R.Action: Sendable {
    package let _engine: _ReducerEngine<R>

    /// Creates a store for `reducer`, starting its global inputs (``Reducer/bind()``).
    ///
    /// - Parameters:
    ///   - reducer: The rules.
    ///   - initialState: The state before any action.
    ///   - name: The store's name in logs and diagnostics.
    ///   - clock: The clock debounce and throttle wait on.
    ///   - middleware: Steps every commit goes through after its reduction, in order.
    ///   - logger: Receives each commit (each reduced action).
    ///   - onEffectError: Receives the errors effects throw and do not handle; by default they
    ///     are printed with the store's name.
    public convenience init(
        reducer: R,
        initialState: R.State,
        name: String? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        middleware: [StoreMiddleware<R.State>] = [],
        logger: (any StoreLogger)? = nil,
        onEffectError: (@Sendable (any Error) -> Void)? = nil
    ) {
        self.init(
            _reducer: reducer, initialState: initialState, name: name, clock: clock,
            middleware: middleware, logger: logger, onEffectError: onEffectError,
            onMainActor: false, intercept: nil
        )
    }

    /// The designated initializer, for ``ViewStore`` and test stores: `onMainActor` reduces
    /// effect actions on the main actor; `intercept` receives effect actions instead of the
    /// queue.
    package init(
        _reducer reducer: R,
        initialState: R.State,
        name: String?,
        clock: some Clock<Duration>,
        middleware: [StoreMiddleware<R.State>],
        logger: (any StoreLogger)?,
        onEffectError: (@Sendable (any Error) -> Void)?,
        onMainActor: Bool,
        intercept: (@Sendable (R.Action) -> Void)?
    ) {
        let storeName = name ?? "ReducerStore<\(R.self)>"
        let core = Self._makeCore(initialState: initialState, name: storeName, middleware: middleware, logger: logger)
        _engine = _ReducerEngine(
            reducer: reducer,
            core: core,
            clock: _ElapsedClock(clock),
            onMainActor: onMainActor,
            reportError: onEffectError ?? { error in
                print("RippleStore: an effect of \(storeName) threw \(error), and had no catch handler.")
            },
            intercept: intercept
        )
        super.init(_core: core)
        _engine.bind()
    }

    deinit {
        _engine.stop(ending: true)
    }

    /// Reduces `action`: the reducer changes the state in one commit, then its effect starts.
    ///
    /// Returns when the action (and what its effect sent synchronously) has been reduced, so
    /// the state reflects it, and no later: actions an effect streams meanwhile do not hold
    /// it. An action sent from a subscriber of this store, on the delivering thread, is queued
    /// instead and reduced after the current one.
    ///
    /// ```swift
    /// store.send(.increment)
    /// assert(store.currentState.number == 1)
    /// ```
    ///
    /// - Parameters:
    ///   - action: What happened.
    ///   - file: The file that sends, named in the commit's ``Transaction``.
    ///   - line: The line that sends.
    /// - Complexity: One reduction and one commit per action, plus the delivery to the
    ///   readers that depend on what changed.
    public func send(_ action: R.Action, file: StaticString = #fileID, line: UInt = #line) {
        _engine.send(action, file: file, line: line)
    }

    /// Cancels every running effect and every queued action, then starts the global inputs
    /// (``Reducer/bind()``) again. The state is kept.
    public func reset() {
        _engine.stop(ending: false)
        _engine.bind()
    }

    /// A binding to the value at `keyPath` whose writes send `action(newValue)` instead of
    /// changing the state directly (OneWay's `binding(_:send:)`), for text fields and toggles.
    ///
    /// ```swift
    /// let query = store.binding(\.query, send: { .queryChanged($0) })
    /// query.value = "ripple"       // sends .queryChanged("ripple")
    /// ```
    ///
    /// Reading it is tracked like `store.state.query`. The binding does not keep the store
    /// alive; a write after the store is gone is dropped.
    public func binding<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<R.State, Value> & Sendable,
        send action: @escaping @Sendable (Value) -> R.Action
    ) -> ValueBinding<Value> {
        let path = _KeyPath(keyPath: keyPath)
        return ValueBinding(
            get: { [_core] in _core.slice(path.keyPath).value },
            set: { [weak self] value in self?.send(action(value)) }
        )
    }
}
