extension MainActorStore {
    /// A main-actor function that commits each value it is given to the field at `keyPath`
    /// (Verge's `assignee`): give it to ``assign(file:line:to:)`` of another main-actor store.
    ///
    /// ```swift
    /// let subscription = settings.assign(to: app.assignee(\.settings))
    /// ```
    ///
    /// A change whose value is equal to the previous one is not committed (Verge drops it as
    /// well). The function does not keep the store alive: once the store is released, what it
    /// is given is dropped.
    ///
    /// - Parameters:
    ///   - keyPath: The field to write.
    ///   - file: The file that assigns, named in the commits' ``Transaction``.
    ///   - line: The line that assigns.
    /// - Returns: A function that commits `changes.current` at `keyPath` when it changed.
    public func assignee<Value: Equatable>(
        _ keyPath: WritableKeyPath<State, Value>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @MainActor (Changes<Value>) -> Void {
        // Made once and copied into each commit; its name is described when read (a key path's
        // description costs many times the commit).
        let transaction = Transaction("assign", describing: keyPath, file: file, line: line)
        return { [weak self] changes in
            guard changes.hasChanges, let self else { return }
            _core.commit(transaction) { state, _ in state[keyPath: keyPath] = changes.current }
        }
    }

    /// Calls `assignee` on the main actor with the current state, then with every change
    /// (Verge's `assign(to:)`): the same as ``sinkState(dropsFirst:file:line:_:)``.
    ///
    /// - Parameters:
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - assignee: Receives each change, usually another main-actor store's
    ///     ``assignee(_:file:line:)``.
    /// - Returns: A subscription that stops the assignment when cancelled or released, or when
    ///   this store is released. It keeps neither store alive.
    public func assign(
        file: StaticString = #fileID,
        line: UInt = #line,
        to assignee: @escaping @MainActor (Changes<State>) -> Void
    ) -> Subscription {
        sinkState(file: file, line: line, assignee)
    }
}
