import Ripple

extension MainActorStore {
    /// The value at `keyPath`, as a main-actor derived value whose readers run only when it
    /// changed.
    ///
    /// The same node backs `store.state[keyPath]` reads: asking twice costs nothing more. It is
    /// a `MainActorComputed`, so `onChange`, `when`, `observeOnMainActor` and list data
    /// sources take it.
    ///
    /// ```swift
    /// let draft = store.derived(\.draft)
    /// ```
    ///
    /// - Complexity: O(1) (one dictionary lookup).
    @inlinable
    public func derived<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> MainActorComputed<Value> {
        // Inlinable: the node is made for the concrete value type (see `_StoreCore.slice`).
        _core.slice(keyPath) { MainActorComputed(describedBy: $0, $1) }
    }

    /// A main-actor value computed by `transform` from the value at `keyPath`, its one declared
    /// input.
    ///
    /// `transform` runs on the main actor, only when the input changed; the result's readers
    /// run only when the result changed.
    ///
    /// ```swift
    /// let remaining = store.derived(from: \.todos) { todos in todos.filter { !$0.isDone }.count }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison of the input; `transform`
    ///   runs only when it changed.
    @inlinable
    public func derived<Input: Equatable, Output: Equatable>(
        from keyPath: KeyPath<State, Input>,
        file: StaticString = #fileID,
        line: UInt = #line,
        transform: @escaping @MainActor (Input) -> Output
    ) -> MainActorComputed<Output> {
        // Apart from the variadic form, whose generic code the optimizer does not specialize:
        // the nodes are made for the concrete types (see `_StoreCore.slice`).
        let slice = _core.slice(keyPath) { MainActorComputed(describedBy: $0, $1) }
        return MainActorComputed(file: file, line: line) { transform(slice.value) }
    }

    /// A main-actor value computed by `transform` from the values at `keyPaths`, its declared
    /// inputs.
    ///
    /// `transform` runs on the main actor, only when one of the inputs changed; the result's
    /// readers run only when the result changed.
    ///
    /// ```swift
    /// let visible = store.derived(from: \.todos, \.filter) { todos, filter in
    ///     todos.filter(filter.isIncluded)
    /// }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison per input; `transform` runs
    ///   only when an input changed.
    public func derived<each Input: Equatable, Output: Equatable>(
        from keyPaths: repeat KeyPath<State, each Input>,
        file: StaticString = #fileID,
        line: UInt = #line,
        transform: @escaping @MainActor (repeat each Input) -> Output
    ) -> MainActorComputed<Output> {
        let slices = (repeat _core.slice(each keyPaths))
        return MainActorComputed(file: file, line: line) {
            transform(repeat (each slices).value)
        }
    }

    /// A main-actor value computed by `transform` from the state it reads: each key path
    /// `transform` reads through the ``MainActorTrackedState`` it receives is an input, and
    /// `transform` runs only when one of those changed.
    ///
    /// ```swift
    /// let count = store.derived { state in state.todos.count }
    /// ```
    ///
    /// - Complexity: O(1) to create. A commit costs one comparison per key path read;
    ///   `transform` runs only when one changed.
    public func derived<Output: Equatable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @MainActor (MainActorTrackedState<State>) -> Output
    ) -> MainActorComputed<Output> {
        let state = MainActorTrackedState(core: _core)
        return MainActorComputed(file: file, line: line) { transform(state) }
    }
}

extension MainActorStore {
    /// A two-way main-actor binding to the value at `keyPath`: reading tracks that value only
    /// (it is ``derived(_:)``'s node), writing commits it. ``Store/binding(_:file:line:)`` for
    /// main-actor code.
    ///
    /// ```swift
    /// let draft = store.binding(\.draft)
    /// draft.value = "Buy milk"               // commits "binding \.draft"
    /// let echo = draft.didChange { old, new in print(old, "→", new) }
    /// ```
    ///
    /// The binding holds the store's state, not the store: once the store is released, a
    /// write is dropped, as a commit to a released store is.
    ///
    /// - Complexity: O(1) to create (one dictionary lookup); a write is one commit.
    @inlinable
    public func binding<Value: Equatable>(
        _ keyPath: WritableKeyPath<State, Value>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> MainActorValueBinding<Value> {
        // Inlinable: the binding's read is compiled for `Value` in the client, where RippleStore's
        // generic code looked up the metadata of `Value?` on each read (see `MainActorComputed.value`).
        let value = derived(keyPath)
        // Made once and copied into each commit; its name is described when read (a key path's
        // description costs many times the commit).
        let transaction = Transaction("binding", describing: keyPath, file: file, line: line)
        return MainActorValueBinding(
            get: { value.value },
            set: { [weak self] newValue in
                self?._core.commit(transaction) { state, _ in state[keyPath: keyPath] = newValue }
            })
    }
}
