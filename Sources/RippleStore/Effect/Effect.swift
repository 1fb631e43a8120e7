/// Work a reducer asks its store to do after it changed the state: send more actions, now or
/// later, from asynchronous code, from a sequence or from a callback API.
///
/// A reducer returns an effect with every action. The store reduces the action first (the
/// state after `send` returns reflects it), then starts the effect. Effects are values: build
/// them with the static functions below and combine them with `concat`,
/// `merge`, ``cancellable(id:cancelInFlight:)``, ``debounce(id:for:)`` and
/// ``throttle(id:for:latest:)``.
///
/// ```swift
/// func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .twice:
///         return .concat(.send(.increment), .send(.increment))
///     case .load:
///         return .run { send in
///             await send(.loaded(try await api.fetch()))
///         }
///         .cancellable(id: "load", cancelInFlight: true)
///     …
///     }
/// }
/// ```
///
/// Actions an effect sends synchronously (``send(_:)``, and `concat` or
/// `merge` of those) are reduced right after the action that returned the
/// effect, before any other queued action; actions sent from asynchronous work are queued
/// like any other. An effect sends nothing once it has been cancelled, even if its work goes on.
/// Debounce and throttle wait on the store's clock, so tests drive them with a test clock.
/// Effects are cancelled when their store is released.
///
/// An effect is `Sendable` when its actions are. The effects that run asynchronous work
/// (``run(priority:operation:catch:)``, ``single(priority:_:)``, ``sequence(priority:_:)``,
/// ``create(_:)``) need `Sendable` actions, as a main-actor app's plain `enum Action` is;
/// the others take any action type.
public struct Effect<Action> {
    indirect enum _Operation {
        case none
        case send(Action)
        case run(
            TaskPriority?, @Sendable (Send<Action>) async throws -> Void,
            (@Sendable (any Error, Send<Action>) async -> Void)?)
        case create(@Sendable (EffectContinuation<Action>) -> Void)
        case concat([Effect])
        case merge([Effect])
        case cancellable(_TaskKey, cancelInFlight: Bool, Effect)
        case cancel(_TaskKey)
        case debounce(_TaskKey, Duration, Effect)
        /// `latest`: hold the latest (`true`) or the first (`false`) effect that arrives in a
        /// window, to start when it closes; `nil`: drop it (leading only).
        case throttle(_TaskKey, Duration, latest: Bool?, Effect)
    }

    let operation: _Operation
    /// Made by ``none``: the reducer store skips the effect without switching over
    /// `operation`, which its unspecialized code does through the generic enum's value
    /// witnesses (a trivial `send` returns `.none`). A `.none` made otherwise is still started,
    /// as nothing.
    let isNone: Bool
    /// Made by ``send(_:)``: the reducer store reduces its action next without an array of
    /// follow-up actions (see `_ReducerEngine.reduceSent`). A `.send` made otherwise is started
    /// like any effect.
    let isSend: Bool

    init(_ operation: _Operation) {
        self.operation = operation
        isNone = false
        isSend = false
    }

    /// An effect that does nothing.
    public static var none: Effect { Effect(none: ()) }

    private init(none: Void) {
        operation = .none
        isNone = true
        isSend = false
    }

    private init(sending action: Action) {
        operation = .send(action)
        isNone = false
        isSend = true
    }

    /// The action of an effect made by ``send(_:)`` (`isSend`).
    var _sentAction: Action {
        guard case .send(let action) = operation else {
            preconditionFailure("RippleStore internal error: the action of an effect that does not send one")
        }
        return action
    }

    /// An effect that sends `action` at once: it is reduced right after the action that
    /// returned this effect, before any other queued action.
    ///
    /// ```swift
    /// case .twice: return .concat(.send(.increment), .send(.increment))
    /// ```
    public static func send(_ action: Action) -> Effect {
        Effect(sending: action)
    }
}

extension Effect: Sendable where Action: Sendable {}
extension Effect._Operation: Sendable where Action: Sendable {}

extension Effect where Action: Sendable {

    /// An effect that runs `operation` in a task and sends what it gives to `send`.
    ///
    /// An error `operation` throws goes to `handler`, which may send an action for it; without
    /// a handler it is reported to the store's error handler (`onEffectError`), and a test store
    /// fails the test. Cancellation is not an error: a cancelled operation's `CancellationError`
    /// is dropped.
    ///
    /// ```swift
    /// .run { send in
    ///     for try await message in chat.messages { await send(.received(message)) }
    /// } catch: { error, send in
    ///     await send(.failed("\(error)"))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work. It may send any number of actions.
    ///   - handler: What to do with an error `operation` throws.
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
    ) -> Effect {
        Effect(.run(priority, operation, handler))
    }

    /// An effect that sends the one action `operation` returns (OneWay's `single`).
    ///
    /// ```swift
    /// case .load: return .single { .loaded(try await api.fetch()) }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: Makes the action. An error is reported like ``run(priority:operation:catch:)``'s.
    public static func single(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws -> Action
    ) -> Effect {
        .run(priority: priority) { send in await send(try await operation()) }
    }

    /// An effect that sends every element of `sequence`, in order, until it ends or the
    /// effect is cancelled. An error the sequence throws is reported like
    /// ``run(priority:operation:catch:)``'s.
    ///
    /// ```swift
    /// func bind() -> Effect<Action> {
    ///     .sequence(notifications.map { Action.received($0) })
    /// }
    /// ```
    public static func sequence<Actions: AsyncSequence & Sendable>(
        priority: TaskPriority? = nil,
        _ sequence: Actions
    ) -> Effect where Actions.Element == Action {
        .run(priority: priority) { send in
            for try await action in sequence {
                await send(action)
            }
        }
    }

    /// An effect for a callback API: `body` gets a continuation to send actions through, at
    /// any time and from any thread, until it calls ``EffectContinuation/finish()`` or the
    /// effect is cancelled (then the continuation's termination handler runs).
    ///
    /// ```swift
    /// .create { continuation in
    ///     let token = locationManager.onUpdate { continuation.send(.moved($0)) }
    ///     continuation.onTermination { token.invalidate() }
    /// }
    /// ```
    ///
    /// `body` runs at once, synchronously, when the effect starts; actions it sends before it
    /// returns are queued like any other.
    public static func create(_ body: @escaping @Sendable (_ continuation: EffectContinuation<Action>) -> Void)
        -> Effect
    {
        Effect(.create(body))
    }
}
