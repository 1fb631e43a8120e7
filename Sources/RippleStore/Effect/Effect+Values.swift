extension Effect where Action: Sendable {
    /// The actions this effect sends when run on its own, with no store (OneWay's
    /// `effect.values`): for testing an effect by itself.
    ///
    /// ```swift
    /// let effect: Effect<Action> = .concat(.send(.started), .single { .loaded(42) })
    /// var sent: [Action] = []
    /// for try await action in effect.values { sent.append(action) }
    /// // sent == [.started, .loaded(42)]
    /// ```
    ///
    /// Each iteration runs the effect once, as a store would, and ends when the effect has
    /// ended; debounce and throttle wait on the continuous clock (use ``values(clock:)`` with a
    /// test clock to drive them). See ``EffectValues``.
    public var values: EffectValues<Action> {
        EffectValues(effect: self, clock: ContinuousClock())
    }

    /// The actions this effect sends when run on its own, its debounces and throttles waiting
    /// on `clock`.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let run = Task { try await Array(effect.values(clock: clock)) }
    /// await clock.advance(by: .milliseconds(300))
    /// ```
    ///
    /// - Parameter clock: The clock the effect's debounces and throttles wait on.
    public func values(clock: some Clock<Duration>) -> EffectValues<Action> {
        EffectValues(effect: self, clock: clock)
    }
}
