import Ripple

/// A store driven by a ``Reducer`` on the main actor: the reducer store of an app target that
/// is main-actor isolated by default (Xcode 26), as TCA's `Store` is main-actor.
///
/// Its reducer, state and actions need no `Sendable` and no `nonisolated`: a plain
/// `struct Feature: Reducer` with a `struct State: Equatable` and an `enum Action`, whose
/// conformances are isolated to the main actor there, is what it takes.
///
/// ```swift
/// struct SearchFeature: Reducer {
///     struct State: Equatable { var query = ""; var results: [String] = [] }
///     enum Action: Equatable { case queryChanged(String), search, found([String]) }
///     let catalog: [String]
///
///     func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         switch action {
///         case .queryChanged(let query):
///             state.query = query
///             return .send(.search).debounce(id: "search", for: .milliseconds(300))
///         case .search:
///             let query = state.query, catalog = catalog
///             return .run { send in await send(.found(catalog.filter { $0.contains(query) })) }
///         case .found(let results):
///             state.results = results
///             return .none
///         }
///     }
/// }
///
/// let store = MainActorReducerStore(reducer: SearchFeature(catalog: catalog), initialState: SearchFeature.State())
/// store.send(.queryChanged("milk"))      // store.currentState.query == "milk"
/// ```
///
/// It is a ``MainActorStore``: subscriptions (`sinkState`), derived values and fine-grained
/// reads (`store.state.query`) work as they do for commits, and each reduced action is one
/// commit named after the action (`send(queryChanged("milk"))`); its ``Transaction/action``
/// is `nil`, since the actions need not be `Sendable`.
///
/// **On the main actor.** Every action is reduced on the main actor, one at a time, in order.
/// The state after ``send(_:file:line:)`` returns reflects the action and what its effect sent
/// at once (``Effect/send(_:)``), except for an action sent from a subscriber during a
/// delivery: that one is queued and reduced after the current one, never re-entrantly.
/// Effects run in tasks; the actions they send come back to the main actor in the order they
/// were sent and are reduced by a main-actor job. An action an effect sends after it was
/// cancelled is dropped.
///
/// For code that is not on the main actor, use ``ReducerStore``, which may be used from any
/// thread and needs a `Sendable` reducer with `Sendable` state and actions whose conformances
/// are not isolated. Swift cannot express one generic store that accepts both: a type parameter
/// that is `Sendable` refuses an isolated conformance ("main actor-isolated conformance of
/// 'SearchFeature' to 'Reducer' cannot satisfy conformance requirement for a 'Sendable' type
/// parameter").
///
/// **Time.** Debounced and throttled effects wait on the clock given to the initializer; tests
/// use RippleTesting's `MainActorTestStore` with a `TestClock`.
///
/// **Lifetime.** Effects do not keep the store alive; releasing the store cancels them.
public final class MainActorReducerStore<R: Reducer>: MainActorStore<R.State, Never> {
    package private(set) var _engine: _MainActorReducerEngine<R>!
    /// The effects' way back, reachable from `deinit` (which may run on any thread).
    private nonisolated let _inbox: _MainActorEffectInbox<R.Action>

    /// Creates a store for `reducer`, starting its global inputs (``Reducer/bind()``).
    ///
    /// - Parameters:
    ///   - reducer: The rules.
    ///   - initialState: The state before any action.
    ///   - name: The store's name in traces and diagnostics.
    ///   - clock: The clock debounce and throttle wait on.
    ///   - onEffectError: Receives the errors effects throw and do not handle; by default they
    ///     are printed with the store's name.
    public convenience init(
        reducer: R,
        initialState: R.State,
        name: String? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        onEffectError: (@Sendable (any Error) -> Void)? = nil
    ) {
        self.init(
            _reducer: reducer, initialState: initialState, name: name, clock: clock, onEffectError: onEffectError,
            intercept: nil)
    }

    /// The designated initializer, for test stores: `intercept` receives effect actions instead
    /// of the queue.
    package init(
        _reducer reducer: R,
        initialState: R.State,
        name: String?,
        clock: some Clock<Duration>,
        onEffectError: (@Sendable (any Error) -> Void)?,
        intercept: (@MainActor (R.Action) -> Void)?
    ) {
        let storeName = name ?? "MainActorReducerStore<\(R.self)>"
        let inbox = _MainActorEffectInbox<R.Action>()
        _inbox = inbox
        super.init(initialState: initialState, name: storeName)
        _engine = _MainActorReducerEngine(
            reducer: reducer,
            core: _core,
            clock: _ElapsedClock(clock),
            inbox: inbox,
            reportError: onEffectError ?? { error in
                print("RippleStore: an effect of \(storeName) threw \(error), and had no catch handler.")
            },
            intercept: intercept
        )
        _engine.bind()
    }

    deinit {
        _inbox.cancelAll(ending: true)
    }

    /// Reduces `action`: the reducer changes the state in one commit, then its effect starts.
    ///
    /// Returns when the action (and what its effect sent at once) has been reduced, so the
    /// state reflects it; from a subscriber during a delivery, the action is queued instead and
    /// reduced after the current one.
    ///
    /// ```swift
    /// store.send(.queryChanged("milk"))
    /// assert(store.currentState.query == "milk")
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
    /// query.value = "milk"            // sends .queryChanged("milk")
    /// TextField("Search", text: Binding(query))
    /// ```
    ///
    /// Reading it is tracked like `store.state.query`: a reaction or a view that reads it runs
    /// again only when that value changed. A write is one ``send(_:file:line:)``: the value
    /// reads back as the reducer left it (a reducer that refuses the change leaves the old
    /// value). The binding does not keep the store alive; a write after the store is gone is
    /// dropped.
    ///
    /// ``MainActorStore/binding(_:file:line:)``, without `send:`, writes by a commit instead.
    ///
    /// - Parameters:
    ///   - keyPath: The value to read.
    ///   - action: The action a write sends, made from the value written.
    /// - Complexity: O(1) to create (one dictionary lookup); a write is one `send`.
    public func binding<Value: Equatable>(
        _ keyPath: KeyPath<R.State, Value>,
        send action: @escaping (Value) -> R.Action
    ) -> MainActorValueBinding<Value> {
        let value = derived(keyPath)
        return MainActorValueBinding(
            get: { value.value },
            set: { [weak self] newValue in self?.send(action(newValue)) })
    }
}
