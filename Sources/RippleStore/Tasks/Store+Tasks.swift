extension Store {
    /// Runs `operation` in a task the store owns, on the caller's actor (Verge's `store.task`):
    /// it is cancelled when the store is released.
    ///
    /// Called on the main actor, `operation` runs on the main actor; called in an actor's method
    /// that uses `self` in `operation`, it runs on that actor; called elsewhere, it runs on no
    /// actor, like `Task { }`.
    ///
    /// ```swift
    /// @MainActor func refresh() {
    ///     store.task {
    ///         let items = try await api.items()
    ///         self.tableView.reload(items)       // on the main actor, no `await`
    ///     }
    /// }
    /// ```
    ///
    /// Unlike ``task(_:policy:priority:_:)``, it has no key: tasks started this way never
    /// replace or wait for one another.
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
    /// ```swift
    /// store.taskDetached {
    ///     let thumbnails = render(pages)        // off the main actor
    ///     store.commit { $0.thumbnails = thumbnails }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work. Capture the store weakly: a task that holds its store keeps it
    ///     alive until the task ends.
    /// - Returns: The task, to await (its value, or the error `operation` threw) or cancel.
    @discardableResult
    public func taskDetached<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws -> Success
    ) -> Task<Success, any Error> {
        _tasks.startUnkeyed(priority: priority, detached: true, operation)
    }

    /// The tasks started by ``task(priority:_:)`` and ``taskDetached(priority:_:)`` that have not
    /// ended, for tests.
    package var _runningTaskCountForTesting: Int {
        _tasks.unkeyedCount
    }
}
