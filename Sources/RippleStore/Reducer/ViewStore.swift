import Ripple

/// A reducer-driven store confined to the main actor, for UI (OneWay's `ViewStore`).
///
/// Every action is reduced on the main actor: ``send(_:file:line:)`` is main-actor isolated,
/// and actions sent by effects from other threads are reduced by a main-actor job, in the order
/// they were sent. So every subscriber of ``store`` and every SwiftUI view reading ``state``
/// sees the changes on the main actor. Otherwise it behaves as ``ReducerStore``, which is safe
/// from any thread; the choice between the two is made once, when the store is created.
///
/// ```swift
/// @MainActor final class CounterViewController {
///     let viewStore = ViewStore(reducer: Counter(), initialState: Counter.State())
///     var subscription: Subscription?
///
///     func viewDidLoad() {
///         subscription = viewStore.store.sinkStateOnMainActor { changes in
///             changes.ifChanged(\.number) { self.label.text = "\($0)" }
///         }
///     }
///     func tapped() { viewStore.send(.increment) }
/// }
/// ```
@MainActor
public final class ViewStore<R: Reducer> where R: Sendable, R.State: Sendable, R.Action: Sendable {
    let _reducerStore: ReducerStore<R>

    /// Creates a main-actor store for `reducer`, starting its global inputs.
    ///
    /// - Parameters:
    ///   - reducer: The rules.
    ///   - initialState: The state before any action.
    ///   - name: The store's name in logs and diagnostics.
    ///   - clock: The clock debounce and throttle wait on.
    ///   - middleware: Steps every commit goes through after its reduction, in order.
    ///   - logger: Receives each commit (each reduced action).
    ///   - onEffectError: Receives the errors effects throw and do not handle.
    public init(
        reducer: R,
        initialState: R.State,
        name: String? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        middleware: [StoreMiddleware<R.State>] = [],
        logger: (any StoreLogger)? = nil,
        onEffectError: (@Sendable (any Error) -> Void)? = nil
    ) {
        _reducerStore = ReducerStore(
            _reducer: reducer, initialState: initialState, name: name ?? "ViewStore<\(R.self)>", clock: clock,
            middleware: middleware, logger: logger, onEffectError: onEffectError,
            onMainActor: true, intercept: nil
        )
    }

    /// The state container, for everything a ``Store`` offers: `sinkState`, `Changes`, derived
    /// values, loggers. Its changes are made on the main actor.
    public var store: Store<R.State, Never> { _reducerStore }

    /// Reduces `action` at once: the state after it returns reflects it (see
    /// ``ReducerStore/send(_:file:line:)``).
    ///
    /// - Parameters:
    ///   - action: What happened.
    ///   - file: The file that sends.
    ///   - line: The line that sends.
    public func send(_ action: R.Action, file: StaticString = #fileID, line: UInt = #line) {
        _reducerStore.send(action, file: file, line: line)
    }

    /// The state, read one key path at a time (tracked per key path in a SwiftUI body).
    public var state: TrackedState<R.State> { _reducerStore.state }

    /// The whole current state.
    public var currentState: R.State { _reducerStore.currentState }

    /// The state now and after every change, with key-path streams (`viewStore.states.number`)
    /// that emit only when that part changed.
    public var states: StateStream<R.State> { _reducerStore.states }

    /// Cancels every effect and queued action, then starts the global inputs again.
    public func reset() {
        _reducerStore.reset()
    }

    /// A binding to the value at `keyPath` whose writes send `action(newValue)`.
    ///
    /// ```swift
    /// TextField("Search", text: Binding(viewStore.binding(\.query, send: { .queryChanged($0) })))
    /// ```
    public func binding<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<R.State, Value> & Sendable,
        send action: @escaping @Sendable (Value) -> R.Action
    ) -> ValueBinding<Value> {
        _reducerStore.binding(keyPath, send: action)
    }
}
