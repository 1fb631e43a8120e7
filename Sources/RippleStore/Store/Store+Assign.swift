extension Store {
    /// A function that commits each value it is given to the field at `keyPath` (Verge's
    /// `assignee`): give it to ``assign(file:line:to:)`` or ``Derived/assign(file:line:to:)`` to keep the field
    /// equal to another store's state or to a derived value.
    ///
    /// ```swift
    /// let subscription = counter.derived(\.count).assign(to: summary.assignee(\.count))
    /// ```
    ///
    /// A change whose value is equal to the previous one is not committed (Verge drops it as
    /// well), so a delivery caused by another part of the source state does not overwrite a
    /// field this store changed meanwhile.
    ///
    /// The function does not keep the store alive: once the store is released, what it is
    /// given is dropped.
    ///
    /// - Parameters:
    ///   - keyPath: The field to write.
    ///   - file: The file that assigns, named in the commits' ``Transaction``.
    ///   - line: The line that assigns.
    /// - Returns: A function that commits `changes.current` at `keyPath` when it changed.
    public func assignee<Value: Equatable & Sendable>(
        _ keyPath: any WritableKeyPath<State, Value> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @Sendable (Changes<Value>) -> Void {
        let path = _WritableKeyPath(keyPath: keyPath)
        // Made once and copied into each commit (its name is described when read).
        let transaction = Transaction("assign", describing: keyPath, file: file, line: line)
        return { [weak self] changes in
            guard changes.hasChanges, let self else { return }
            _core.commit(transaction) { state, _ in state[keyPath: path.keyPath] = changes.current }
        }
    }

    /// A function that commits each value it is given to the optional field at `keyPath`:
    /// like the other `assignee(_:)`, for a non-optional source and an optional field.
    ///
    /// ```swift
    /// let subscription = source.derived(\.count).assign(to: target.assignee(\.lastCount))
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The optional field to write.
    ///   - file: The file that assigns.
    ///   - line: The line that assigns.
    /// - Returns: A function that commits `changes.current` at `keyPath` when it changed.
    public func assignee<Value: Equatable & Sendable>(
        _ keyPath: any WritableKeyPath<State, Value?> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @Sendable (Changes<Value>) -> Void {
        let path = _WritableKeyPath(keyPath: keyPath)
        // Made once and copied into each commit (its name is described when read).
        let transaction = Transaction("assign", describing: keyPath, file: file, line: line)
        return { [weak self] changes in
            guard changes.hasChanges, let self else { return }
            _core.commit(transaction) { state, _ in state[keyPath: path.keyPath] = changes.current }
        }
    }

    /// A function that commits every value it is given to the field at `keyPath` (Verge's
    /// assignee of plain values), for a source that is not a `Changes`.
    ///
    /// ```swift
    /// let setName: @Sendable (String) -> Void = store.assignee(\.name)
    /// setName("Ada")
    /// ```
    ///
    /// A value equal to the field's current one changes nothing (commits that change nothing
    /// are silent). The function does not keep the store alive.
    ///
    /// - Parameters:
    ///   - keyPath: The field to write.
    ///   - file: The file that assigns.
    ///   - line: The line that assigns.
    /// - Returns: A function that commits the value it is given at `keyPath`.
    @_disfavoredOverload
    public func assignee<Value: Sendable>(
        _ keyPath: any WritableKeyPath<State, Value> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @Sendable (Value) -> Void {
        let path = _WritableKeyPath(keyPath: keyPath)
        let transaction = Transaction("assign", describing: keyPath, file: file, line: line)
        return { [weak self] value in
            self?._core.commit(transaction) { state, _ in state[keyPath: path.keyPath] = value }
        }
    }

    /// Calls `assignee` with the current state, then with every change, on the committing
    /// thread (Verge's `assign(to:)`): the same as ``sinkState(dropsFirst:file:line:_:)``.
    ///
    /// ```swift
    /// let subscription = settings.assign(to: app.assignee(\.settings))
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - assignee: Receives each change, usually another store's
    ///     `assignee(_:)`.
    /// - Returns: A subscription that stops the assignment when cancelled or released, or when
    ///   this store is released. It keeps neither store alive.
    public func assign(
        file: StaticString = #fileID,
        line: UInt = #line,
        to assignee: @escaping @Sendable (Changes<State>) -> Void
    ) -> Subscription {
        sinkState(file: file, line: line, assignee)
    }
}
