extension MainActorStore {
    /// Runs `operation` in a task the store owns, on the caller's actor (the main actor, where
    /// this store is used; Verge's `store.task`): it is cancelled when the store is released.
    ///
    /// ```swift
    /// store.task {
    ///     let items = try await api.items()
    ///     store.commit { $0.items = items }     // on the main actor, no `await`
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work. Capture the store weakly: a task that holds its store keeps it
    ///     alive until the task ends.
    /// - Returns: The task, to await (its value, or the error `operation` threw) or cancel.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority? = nil,
        @_inheritActorContext _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        _tasks.startUnkeyed(priority: priority, detached: false, operation)
    }

    /// Runs `operation` in a detached task the store owns, on no actor (Verge's
    /// `store.taskDetached`): it is cancelled when the store is released.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work, off the main actor.
    /// - Returns: The task, to await (its value, or the error `operation` threw) or cancel.
    @discardableResult
    public func taskDetached<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws -> Success
    ) -> Task<Success, any Error> {
        _tasks.startUnkeyed(priority: priority, detached: true, operation)
    }
}
