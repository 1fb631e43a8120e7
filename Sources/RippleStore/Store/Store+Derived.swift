extension Store {
    /// The value at `keyPath`, as a derived value whose readers run only when it changed.
    ///
    /// The same node backs `store.state[keyPath]` reads: asking twice costs nothing more.
    ///
    /// ```swift
    /// let count = store.derived(\.count)
    /// ```
    ///
    /// - Complexity: O(1) (one dictionary lookup).
    @inlinable
    public func derived<Value: Equatable & Sendable>(_ keyPath: any KeyPath<State, Value> & Sendable) -> Derived<Value>
    {
        // Inlinable: the node is made for the concrete value type (see `_StoreCore.slice`).
        Derived(_core.slice(keyPath) { Computed(describedBy: $0, $1) }, sources: _sourceStores)
    }

    /// A value computed by `transform` from the value at `keyPath`, its one declared input.
    ///
    /// `transform` runs only when the input changed; the result's readers run only when the
    /// result changed.
    ///
    /// ```swift
    /// let total = store.derived(from: \.items) { items in items.count }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison of the input; `transform`
    ///   runs only when it changed.
    @inlinable
    public func derived<Input: Equatable & Sendable, Output: Equatable & Sendable>(
        from keyPath: KeyPath<State, Input>,
        transform: @escaping @Sendable (Input) -> Output
    ) -> Derived<Output> {
        // Apart from the variadic form, whose generic code the optimizer does not specialize:
        // the one-input form is the common one, and its nodes are then made for the concrete
        // types (see `_StoreCore.slice`).
        let slice = _core.slice(keyPath) { Computed(describedBy: $0, $1) }
        return Derived(Computed { transform(slice.value) }, sources: _sourceStores)
    }

    /// A value computed by `transform` from the values at `keyPaths`, its declared inputs.
    ///
    /// `transform` runs only when one of the inputs changed; the result's readers run only when
    /// the result changed.
    ///
    /// ```swift
    /// let visible = store.derived(from: \.todos, \.filter) { todos, filter in
    ///     todos.filter(filter.isIncluded)
    /// }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison per input; `transform` runs
    ///   only when an input changed.
    @inlinable
    public func derived<each Input: Equatable & Sendable, Output: Equatable & Sendable>(
        from keyPaths: repeat KeyPath<State, each Input>,
        transform: @escaping @Sendable (repeat each Input) -> Output
    ) -> Derived<Output> {
        // Inlinable: the nodes are made for the concrete types (see `_StoreCore.slice`).
        let slices = (repeat _core.slice(each keyPaths) { Computed(describedBy: $0, $1) })
        return Derived(
            Computed {
                transform(repeat (each slices).value)
            },
            sources: _sourceStores)
    }

    /// A value computed by `transform` from the state it reads: each key path `transform`
    /// reads through the ``TrackedState`` it receives is an input, and `transform` runs only
    /// when one of those changed.
    ///
    /// ```swift
    /// let title = store.derived { state in "\(state.name) (\(state.count))" }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison per key path read;
    ///   `transform` runs only when one changed.
    public func derived<Output: Equatable & Sendable>(
        _ transform: @escaping @Sendable (TrackedState<State>) -> Output
    ) -> Derived<Output> {
        let state = TrackedState(source: _core)
        return Derived(Computed { transform(state) }, sources: _sourceStores)
    }

    /// A two-way binding to the value at `keyPath`: reading tracks that value only, writing
    /// commits it.
    ///
    /// ```swift
    /// let name = store.binding(\.name)
    /// name.value = "Ada"
    /// ```
    public func binding<Value: Equatable & Sendable>(
        _ keyPath: any WritableKeyPath<State, Value> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> StoreBinding<Value> {
        StoreBinding(_StoreKeyPathSource(core: _core, path: _WritableKeyPath(keyPath: keyPath), file: file, line: line))
    }
}
