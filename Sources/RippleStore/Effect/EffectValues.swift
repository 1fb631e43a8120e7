import Ripple

/// The actions an ``Effect`` sends when it runs on its own, with no store: what
/// ``Effect/values`` (OneWay's `effect.values`) gives, for testing an effect by itself.
///
/// ```swift
/// let effect = Feature().reduce(into: &state, action: .load)
/// var sent: [Feature.Action] = []
/// for try await action in effect.values { sent.append(action) }
/// #expect(sent == [.loaded(42)])
/// ```
///
/// **Each iterator runs the effect once**, from the moment it is made, exactly as a store
/// would run it: actions sent at once (``Effect/send(_:)``, a `concat` of those) come first,
/// then what its asynchronous work sends, in the order it was sent. `concat`, `merge`,
/// ``Effect/cancellable(id:cancelInFlight:)`` and ``Effect/cancel(id:)`` (within this run),
/// ``Effect/debounce(id:for:)`` and the throttles behave as in a store; debounce and throttle
/// wait on the clock given to ``Effect/values(clock:)`` (a test clock in tests).
///
/// **The sequence ends** when the effect has ended: every step of a `concat`, every part of a
/// `merge`, every `create` continuation finished. An error the effect throws and does not
/// handle (no `catch:`) ends it by throwing that error, cancelling the rest; so iterate with
/// `for try await` (OneWay's sequence does not throw, and drops the error). Leaving the loop
/// early, or cancelling the iterating task, cancels what still runs.
///
/// - Complexity: Making an iterator costs what creating a small store costs; each action
///   costs one buffered element.
public struct EffectValues<Action: Sendable>: AsyncSequence, Sendable {
    /// What the effect sends.
    public typealias Element = Action
    /// An error the effect threw without handling it.
    public typealias Failure = any Error

    let effect: Effect<Action>
    let run: @Sendable (Effect<Action>, AsyncThrowingStream<Action, any Error>.Continuation) -> Void

    init(effect: Effect<Action>, clock: some Clock<Duration>) {
        self.effect = effect
        run = { effect, continuation in
            let store = ReducerStore(
                _reducer: _EffectHost(effect: .concat(effect.map { .action($0) }, .send(.end))),
                initialState: _EffectHost<Action>.State(),
                name: "Effect<\(Action.self)>.values",
                clock: clock,
                middleware: [],
                logger: nil,
                onEffectError: { error in continuation.finish(throwing: error) },
                onMainActor: false,
                intercept: { action in
                    switch action {
                    case .action(let action): continuation.yield(action)
                    case .end: continuation.finish()
                    }
                }
            )
            // The termination handler keeps the store (and so the effect's tasks) alive until
            // the sequence ends or its iterator is dropped; then it cancels what still runs.
            continuation.onTermination = { _ in store._engine.stop(ending: true) }
        }
    }

    /// Runs the effect, and returns an iterator over what it sends.
    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream<Action, any Error>.makeStream()
        run(effect, continuation)
        return AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Gives the actions one run of the effect sends, in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Action, any Error>.Iterator

        /// The next action the effect sends; `nil` once it has ended.
        ///
        /// - Throws: The error the effect threw without handling it.
        public mutating func next() async throws -> Action? {
            try await base.next()
        }

        /// The next action the effect sends, waiting on `actor`; `nil` once it has ended.
        ///
        /// - Throws: The error the effect threw without handling it.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Action? {
            try await base.next(isolation: actor)
        }
    }
}

/// The reducer an effect runs under in ``EffectValues``: the effect is its global input, and
/// a last action marks its end.
struct _EffectHost<Action: Sendable>: Reducer, Sendable {
    struct State: Equatable, Sendable {}
    enum HostAction: Sendable {
        case action(Action)
        case end
    }

    let effect: Effect<HostAction>

    func reduce(into state: inout State, action: HostAction) -> Effect<HostAction> { .none }
    func bind() -> Effect<HostAction> { effect }
}
