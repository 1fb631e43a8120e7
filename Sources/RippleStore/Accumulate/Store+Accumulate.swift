extension Store {
    /// Calls the parts `build` makes with the current state, then after every commit, on the
    /// committing thread (Verge's `accumulate`): each part runs its handler only when the value
    /// it watches changed since the previous delivery.
    ///
    /// ```swift
    /// let subscription = store.accumulate {
    ///     $0.ifChanged(\.name).do { name in print("name:", name) }
    ///     $0.ifChanged(\.count).dropFirst().do { count in print("count changed to", count) }
    /// }
    /// ```
    ///
    /// `build` runs once per delivery, and may use `if`, `switch` and `for`. Unlike
    /// ``Changes/ifChanged(_:perform:)-90bxw``, a part compares with what *it* saw last, so
    /// ``AccumulationIfChanged/dropFirst(_:)`` can count its changes. For handlers that touch
    /// the UI, use ``accumulateOnMainActor(isolation:file:line:_:)`` (Verge's default queue).
    ///
    /// - Parameters:
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - build: Makes the parts from the builder it receives.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when the
    ///   store is released.
    public func accumulate(
        file: StaticString = #fileID,
        line: UInt = #line,
        @AccumulationSinkBuilder<State> _ build: @escaping @Sendable (AccumulationBuilder<State>) -> Accumulation<State>
    ) -> Subscription {
        accumulate(file: file, line: line) { builder, _ in build(builder) }
    }

    /// Like the `accumulate` whose `build` takes only the builder, with the current state given
    /// to `build` too, to pick the parts by it (Verge's `accumulate { builder, state in … }`).
    ///
    /// ```swift
    /// let subscription = store.accumulate { builder, state in
    ///     if state.isLoggedIn {
    ///         builder.ifChanged(\.user).do { user in print("user:", user) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - build: Makes the parts from the builder and the current state.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when the
    ///   store is released.
    public func accumulate(
        file: StaticString = #fileID,
        line: UInt = #line,
        @AccumulationSinkBuilder<State> _ build:
            @escaping @Sendable (AccumulationBuilder<State>, State) -> Accumulation<
                State
            >
    ) -> Subscription {
        let memory = _ReactionBox<[[Int]: _AccumulationMemory]>([:])
        return sinkState(file: file, line: line) { changes in
            build(AccumulationBuilder(), changes.current).run(on: changes.current, memory: &memory.value)
        }
    }

    /// Calls the parts `build` makes on the main actor, with the current state, then after
    /// commits, like ``sinkStateOnMainActor(dropsFirst:isolation:file:line:_:)`` (Verge's
    /// `accumulate` on its default, main-actor queue).
    ///
    /// ```swift
    /// subscription = store.accumulateOnMainActor {
    ///     $0.ifChanged(\.title).do { title in self.navigationItem.title = title }
    /// }
    /// ```
    ///
    /// Commits made while a delivery is on its way to the main actor are seen together, so a
    /// part compares the latest value with the one it saw last.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in by the compiler: from the main actor, the
    ///     first delivery happens before this returns.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - build: Makes the parts from the builder it receives, on the main actor.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when the
    ///   store is released.
    public func accumulateOnMainActor(
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line,
        @AccumulationSinkBuilder<State> _ build:
            @escaping @MainActor (AccumulationBuilder<State>) -> Accumulation<State>
    ) -> Subscription {
        let memory = _ReactionBox<[[Int]: _AccumulationMemory]>([:])
        return sinkStateOnMainActor(isolation: isolation, file: file, line: line) { changes in
            build(AccumulationBuilder()).run(on: changes.current, memory: &memory.value)
        }
    }
}
