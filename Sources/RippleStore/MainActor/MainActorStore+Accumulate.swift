extension MainActorStore {
    /// Calls the parts `build` makes on the main actor with the current state, then after every
    /// commit (Verge's `accumulate`): each part runs its handler only when the value it watches
    /// changed since the previous delivery.
    ///
    /// ```swift
    /// let subscription = store.accumulate {
    ///     $0.ifChanged(\.title).do { title in navigationItem.title = title }
    ///     $0.ifChanged(\.items.count).dropFirst().do { _ in tableView.flashScrollIndicators() }
    /// }
    /// ```
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
        @AccumulationSinkBuilder<State> _ build:
            @escaping @MainActor (AccumulationBuilder<State>) -> Accumulation<State>
    ) -> Subscription {
        accumulate(file: file, line: line) { builder, _ in build(builder) }
    }

    /// Like the `accumulate` whose `build` takes only the builder, with the current state given
    /// to `build` too, to pick the parts by it.
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
            @escaping @MainActor (AccumulationBuilder<State>, State) -> Accumulation<
                State
            >
    ) -> Subscription {
        let memory = _MainActorBox<[[Int]: _AccumulationMemory]>([:])
        return sinkState(file: file, line: line) { changes in
            build(AccumulationBuilder(), changes.current).run(on: changes.current, memory: &memory.value)
        }
    }
}
