import Ripple

extension Effect {
    /// An effect that runs `effects` one after the other: each starts when the one before it
    /// ended.
    ///
    /// ```swift
    /// case .twice: return .concat(.send(.increment), .send(.increment))
    /// ```
    public static func concat(_ effects: Effect...) -> Effect {
        .concat(effects)
    }

    /// An effect that runs `effects` one after the other.
    public static func concat(_ effects: [Effect]) -> Effect {
        Effect(.concat(effects.filter { if case .none = $0.operation { false } else { true } }))
    }

    /// An effect that runs the effects `build` lists one after the other; `build` may use
    /// `if`, `switch`, optionals and `for` loops.
    ///
    /// ```swift
    /// return .concat {
    ///     Effect.send(.saveStarted)
    ///     if state.isSignedIn { Effect.run { send in try await sync(); await send(.synced) } }
    ///     for id in state.dirty { Effect.send(.save(id)) }
    /// }
    /// ```
    public static func concat(@EffectBuilder<Action> _ build: () -> [Effect]) -> Effect {
        .concat(build())
    }

    /// An effect that runs `effects` at the same time, ending when all have ended.
    ///
    /// ```swift
    /// case .appeared: return .merge(.send(.loadProfile), .send(.loadFeed))
    /// ```
    public static func merge(_ effects: Effect...) -> Effect {
        .merge(effects)
    }

    /// An effect that runs `effects` at the same time.
    public static func merge(_ effects: [Effect]) -> Effect {
        Effect(.merge(effects.filter { if case .none = $0.operation { false } else { true } }))
    }

    /// An effect that runs the effects `build` lists at the same time; `build` may use `if`,
    /// `switch`, optionals and `for` loops.
    public static func merge(@EffectBuilder<Action> _ build: () -> [Effect]) -> Effect {
        .merge(build())
    }

    /// This effect, cancellable by ``cancel(id:)`` with `id`.
    ///
    /// With `cancelInFlight`, the effects already running under `id` are cancelled first (a
    /// search that restarts on every keystroke).
    ///
    /// ```swift
    /// case .search(let query):
    ///     return .run { send in await send(.results(try await api.search(query))) }
    ///         .cancellable(id: "search", cancelInFlight: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable value naming the effect.
    ///   - cancelInFlight: Whether to cancel the effects running under `id` first.
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        Effect(.cancellable(_TaskKey(id), cancelInFlight: cancelInFlight, self))
    }

    /// An effect that cancels every effect running under `id`: their tasks are cancelled and
    /// their later sends dropped.
    ///
    /// ```swift
    /// case .stop: return .cancel(id: "timer")
    /// ```
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(.cancel(_TaskKey(id)))
    }

    /// This effect, started only after `duration` passed on the store's clock without another
    /// effect debounced under the same `id`: each new one cancels the one waiting.
    ///
    /// ```swift
    /// case .queryChanged(let query):
    ///     state.query = query
    ///     return .send(.search).debounce(id: "search", for: .milliseconds(300))
    /// ```
    ///
    /// - Parameters:
    ///   - id: The debounce's name, shared by the effects that replace each other.
    ///   - duration: How long to wait.
    public func debounce(id: some Hashable & Sendable, for duration: Duration) -> Effect {
        Effect(.debounce(_TaskKey(id), duration, self))
    }

    /// This effect, started at most once per `duration` on the store's clock among the effects
    /// throttled under the same `id`.
    ///
    /// The first one starts at once and opens a window of `duration`. Those that arrive in the
    /// window are held: when it closes, the latest of them (with `latest`) or the first of them
    /// (without) starts and opens the next window; the others are dropped. To drop every effect
    /// that arrives inside the window (OneWay's `latest: false`), use ``throttle(id:for:)``.
    ///
    /// ```swift
    /// case .scrolled(let offset):
    ///     return .send(.loadMore(offset)).throttle(id: "scroll", for: .seconds(1), latest: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The throttle's name.
    ///   - duration: The window.
    ///   - latest: Whether the latest (`true`) or the first (`false`) effect held in a window
    ///     starts when it closes.
    public func throttle(id: some Hashable & Sendable, for duration: Duration, latest: Bool) -> Effect {
        Effect(.throttle(_TaskKey(id), duration, latest: latest, self))
    }

    /// This effect, started only when no effect throttled under the same `id` started in the
    /// last `duration` on the store's clock; otherwise it is dropped (a leading-only throttle,
    /// such as a double-tap guard). OneWay's `throttle(id:for:)` and `latest: false`.
    ///
    /// The first one starts at once and opens a window of `duration`. Those that arrive in the
    /// window are dropped, never started later; the first one after the window starts at once
    /// and opens the next. With a 1 s window, sends at 0, 0.5 s and 1.5 s start at 0 and 1.5 s.
    ///
    /// ```swift
    /// case .buyTapped:
    ///     return .send(.purchase).throttle(id: "buy", for: .seconds(1))
    /// ```
    ///
    /// Unlike ``throttle(id:for:latest:)`` with `latest: false`, which starts the first held
    /// effect when the window closes.
    ///
    /// - Parameters:
    ///   - id: The throttle's name.
    ///   - duration: The window.
    /// - Complexity: O(1) per effect.
    public func throttle(id: some Hashable & Sendable, for duration: Duration) -> Effect {
        Effect(.throttle(_TaskKey(id), duration, latest: nil, self))
    }
}

extension Effect where Action: Sendable {
    /// This effect, with every action it sends transformed by `transform`: for a child reducer's
    /// effects inside a parent.
    ///
    /// ```swift
    /// case .counter(let action):
    ///     return Counter().reduce(into: &state.counter, action: action).map(Action.counter)
    /// ```
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
        switch operation {
        case .none:
            return .none
        case .send(let action):
            return .send(transform(action))
        case .run(let priority, let body, let handler):
            let mappedHandler = handler.map { handler in
                { @Sendable (error: any Error, send: Send<Other>) async in
                    await handler(error, Send(waiting: { await send.deliver(transform($0)) }))
                }
            }
            return Effect<Other>(
                .run(
                    priority, { send in try await body(Send(waiting: { await send.deliver(transform($0)) })) },
                    mappedHandler))
        case .create(let body):
            return .create { continuation in
                body(
                    EffectContinuation(deliver: { continuation.send(transform($0)) }, ended: { continuation.finish() }))
            }
        case .concat(let effects):
            return Effect<Other>(.concat(effects.map { $0.map(transform) }))
        case .merge(let effects):
            return Effect<Other>(.merge(effects.map { $0.map(transform) }))
        case .cancellable(let id, let cancelInFlight, let effect):
            return Effect<Other>(.cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform)))
        case .cancel(let id):
            return Effect<Other>(.cancel(id))
        case .debounce(let id, let duration, let effect):
            return Effect<Other>(.debounce(id, duration, effect.map(transform)))
        case .throttle(let id, let duration, let latest, let effect):
            return Effect<Other>(.throttle(id, duration, latest: latest, effect.map(transform)))
        }
    }
}

extension Effect where Action: Sendable {
    /// An effect that sends `transform(value)` for the current value of `node` and then for
    /// every change of it, for as long as it runs: a global input for ``Reducer/bind()``.
    ///
    /// ```swift
    /// func bind() -> Effect<Action> {
    ///     .values(of: settings.theme) { Action.themeChanged($0) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - node: Any core value (`Stored`, `Computed`, a model property's binding).
    ///   - transform: Makes the action for a value.
    public static func values<Node: Readable & Sendable>(
        of node: Node,
        _ transform: @escaping @Sendable (Node.Value) -> Action
    ) -> Effect {
        .create { continuation in
            let subscription = observe { continuation.send(transform(node.value)) }
            continuation.onTermination { subscription.cancel() }
        }
    }

    /// An effect that sends `transform(value)` for every value `event` sends from now on, for
    /// as long as it runs: a global input for ``Reducer/bind()``.
    ///
    /// ```swift
    /// func bind() -> Effect<Action> {
    ///     .events(of: session.didExpire) { _ in .signedOut }
    /// }
    /// ```
    public static func events<Value: Sendable>(
        of event: Event<Value>,
        _ transform: @escaping @Sendable (Value) -> Action
    ) -> Effect {
        .create { continuation in
            let subscription = event.subscribe { continuation.send(transform($0)) }
            continuation.onTermination { subscription.cancel() }
        }
    }
}
