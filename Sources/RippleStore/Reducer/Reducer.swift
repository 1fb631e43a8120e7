/// The rules of a reducer-driven store: how each action changes the state, and which effects
/// it starts (OneWay's `Reducer`, TCA's `Reducer`).
///
/// ```swift
/// struct Counter: Reducer {
///     struct State: Equatable { var number = 0 }
///     enum Action { case increment, decrement, twice, load, loaded(Int) }
///
///     func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         switch action {
///         case .increment: state.number += 1; return .none
///         case .decrement: state.number -= 1; return .none
///         case .twice: return .concat(.send(.increment), .send(.increment))
///         case .load:
///             return .run { send in await send(.loaded(try await api.fetch())) }
///                 .cancellable(id: "load")
///         case .loaded(let n): state.number = n; return .none
///         }
///     }
/// }
///
/// let store = ReducerStore(reducer: Counter(), initialState: Counter.State())
/// store.send(.twice)        // store.currentState.number == 2
/// ```
///
/// ``reduce(into:action:)`` is synchronous and must only change `state` and describe effects:
/// it runs inside the store's commit, where reading or writing other stores is fine but
/// committing to the same store is a mistake the store stops on. Everything that waits or
/// touches the outside world goes in an ``Effect``.
///
/// **Isolation.** The protocol asks for no `Sendable`: in an app target that is main-actor
/// isolated by default (Xcode 26), a plain `struct Feature: Reducer` with a plain
/// `struct State: Equatable` and `enum Action: Equatable` conforms with main-actor isolated
/// conformances, and runs in a ``MainActorReducerStore`` (tested by RippleTesting's
/// `MainActorTestStore`). The stores safe from any thread (``ReducerStore``, ``ViewStore``,
/// `TestStore`) require a `Sendable` reducer with `Sendable` state and actions whose
/// conformances are not isolated (`nonisolated struct Feature: Reducer` there).
public protocol Reducer<State, Action> {
    /// The state the reducer changes. A value type.
    associatedtype State: Equatable
    /// What can happen.
    associatedtype Action

    /// Applies `action` to `state` and returns the work to do afterwards.
    func reduce(into state: inout State, action: Action) -> Effect<Action>

    /// The store's global inputs (OneWay's `bind()`): effects that run for the life of the
    /// store, turning external sources into actions. The store starts them when it is created
    /// and again after ``ReducerStore/reset()``. None by default.
    ///
    /// ```swift
    /// func bind() -> Effect<Action> {
    ///     .merge(
    ///         .values(of: settings.theme) { .themeChanged($0) },
    ///         .events(of: session.didExpire) { _ in .signedOut },
    ///         .sequence(pushNotifications.map { .received($0) })
    ///     )
    /// }
    /// ```
    func bind() -> Effect<Action>
}

extension Reducer {
    /// No global inputs.
    public func bind() -> Effect<Action> { .none }
}
