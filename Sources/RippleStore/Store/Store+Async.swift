extension Store {
    /// The state now and after every commit that changed it, as an asynchronous sequence that
    /// ends when the store is released; `store.states.number` emits `number` now and after
    /// every commit that changed it.
    ///
    /// Every value is buffered, so an iteration sees each state, in commit order, however
    /// slowly it runs.
    ///
    /// ```swift
    /// for await state in store.states {
    ///     render(state)
    /// }
    /// for await count in store.states.count { badge.text = "\(count)" }
    /// ```
    public var states: StateStream<State> {
        StateStream(source: _WholeStateSource(core: _core))
    }

    /// The changes of every commit from now on (the first one holding the current state), as an
    /// asynchronous sequence that ends when the store is released. Every commit is buffered.
    ///
    /// ```swift
    /// for await changes in store.changes {
    ///     changes.ifChanged(\.count) { print("count:", $0) }
    /// }
    /// ```
    public var changes: AsyncStream<Changes<State>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Changes<State>.self)
        // Without an owner, as `activities`.
        let subscription = _core.own(
            withoutOwner { _core.sink(dropsFirst: false, file: #fileID, line: #line) { continuation.yield($0) } }
        ) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Runs `operation` in a task the store owns under `key`: it is cancelled when the store is
    /// released, or by ``cancelTask(_:)``.
    ///
    /// With ``StoreTaskPolicy/replace`` (the default), a task still running under `key` is
    /// cancelled first; with ``StoreTaskPolicy/enqueue``, the new one starts when it ended, and
    /// when every task started under `key` before it ended, a cancelled one that has not
    /// reached its end yet included (two saves never overlap).
    ///
    /// ```swift
    /// final class SearchStore: Store<SearchState, Never>, @unchecked Sendable {
    ///     func search(_ query: String) {
    ///         commit { $0.query = query }
    ///         task("search") { [weak self] in
    ///             let results = await api.search(query)
    ///             guard !Task.isCancelled else { return }
    ///             self?.commit { $0.results = results }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The task's key.
    ///   - policy: What to do with a task still running under `key`.
    ///   - priority: The task's priority.
    ///   - operation: The work. Capture the store weakly: a task that holds its store keeps
    ///     it alive until the task ends.
    /// - Returns: The task, to await or cancel.
    @discardableResult
    public func task(
        _ key: some Hashable & Sendable,
        policy: StoreTaskPolicy = .replace,
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        _tasks.start(key: _TaskKey(key), policy: policy, priority: priority, operation)
    }

    /// Cancels every task started under `key` that has not ended.
    public func cancelTask(_ key: some Hashable & Sendable) {
        _tasks.cancel(_TaskKey(key))
    }

    /// Whether a task started under `key` is running: it has not ended, and was not cancelled
    /// (by ``cancelTask(_:)`` or a ``StoreTaskPolicy/replace``). A cancelled task that has not
    /// reached its end yet does not count, though an ``StoreTaskPolicy/enqueue`` task still
    /// waits for it.
    public func isTaskRunning(_ key: some Hashable & Sendable) -> Bool {
        _tasks.isRunning(_TaskKey(key))
    }
}
