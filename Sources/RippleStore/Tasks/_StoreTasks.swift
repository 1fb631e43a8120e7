import Ripple

/// The tasks a store owns, by key or without one: cancelled with the store.
final class _StoreTasks: @unchecked Sendable {
    private struct Entry {
        let id: UInt64
        let task: Task<Void, Never>
        /// Cancelled (by `.replace`, `cancel(_:)`), and still running until it reaches its end:
        /// an `.enqueue` task waits for it, `isRunning(_:)` does not count it.
        var isCancelled = false
    }

    private let lock = _Lock()
    /// The tasks started under each key that have not ended, cancelled ones included, oldest
    /// first.
    private var entries: [_TaskKey: [Entry]] = [:]
    /// How to cancel each task started without a key that has not ended, by id.
    private var unkeyed: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    private var isEnded = false

    func attach<State>(to core: _StoreCore<State>) {
        _ = core.onEnd { [self] in cancelAll() }
    }

    /// Starts `operation` under `key`. `.replace` cancels the tasks running under the key;
    /// `.enqueue` runs once every one of them ended, cancelled ones included.
    func start(
        key: _TaskKey,
        policy: StoreTaskPolicy,
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        lock.lock()
        if isEnded {
            lock.unlock()
            let task = Task(priority: priority) {}
            task.cancel()
            return task
        }
        nextID += 1
        let id = nextID
        let running = entries[key] ?? []
        let task: Task<Void, Never>
        switch policy {
        case .replace:
            task = Task(priority: priority) { [self] in
                await operation()
                finish(key, id)
            }
            entries[key] =
                running.map { Entry(id: $0.id, task: $0.task, isCancelled: true) } + [Entry(id: id, task: task)]
        case .enqueue:
            let previous = running.map(\.task)
            task = Task(priority: priority) { [self] in
                for earlier in previous { await earlier.value }
                if !Task.isCancelled { await operation() }
                finish(key, id)
            }
            entries[key, default: []].append(Entry(id: id, task: task))
        }
        lock.unlock()
        if case .replace = policy {
            for entry in running where !entry.isCancelled { entry.task.cancel() }
        }
        return task
    }

    /// Starts `operation` in a task of its own, on the actor `operation` is isolated to (the
    /// caller's, through `@_inheritActorContext`), or detached from any actor when `detached`.
    /// The store forgets the task when it ends, and cancels it if the store is released first.
    func startUnkeyed<Success: Sendable>(
        priority: TaskPriority?,
        detached: Bool,
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        lock.lock()
        if isEnded {
            lock.unlock()
            let task = Task<Success, any Error>(priority: priority) { throw CancellationError() }
            task.cancel()
            return task
        }
        nextID += 1
        let id = nextID
        // Created with the lock held (a task never starts inline), so that it is registered
        // before its end can forget it.
        let task: Task<Success, any Error>
        if detached {
            task = Task.detached(priority: priority) { [self] in
                defer { finishUnkeyed(id) }
                return try await operation()
            }
        } else {
            task = Task(priority: priority) { [self] in
                defer { finishUnkeyed(id) }
                // Runs on `operation`'s actor: calling an `@isolated(any)` function hops there.
                return try await operation()
            }
        }
        unkeyed[id] = { task.cancel() }
        lock.unlock()
        return task
    }

    private func finishUnkeyed(_ id: UInt64) {
        let removed = lock.withLock { unkeyed.removeValue(forKey: id) }
        _ = removed  // released with the lock released
    }

    /// The tasks started without a key that have not ended.
    var unkeyedCount: Int {
        lock.withLock { unkeyed.count }
    }

    private func finish(_ key: _TaskKey, _ id: UInt64) {
        lock.withLock {
            guard var list = entries[key], let index = list.firstIndex(where: { $0.id == id }) else { return }
            list.remove(at: index)
            entries[key] = list.isEmpty ? nil : list
        }
    }

    /// Cancels the tasks under `key`; each stays listed until it ends (see `Entry.isCancelled`).
    func cancel(_ key: _TaskKey) {
        let cancelled = lock.withLock { () -> [Task<Void, Never>] in
            guard let list = entries[key] else { return [] }
            entries[key] = list.map { Entry(id: $0.id, task: $0.task, isCancelled: true) }
            return list.filter { !$0.isCancelled }.map(\.task)
        }
        for task in cancelled { task.cancel() }
    }

    /// Whether a task under `key` has neither ended nor been cancelled.
    func isRunning(_ key: _TaskKey) -> Bool {
        lock.withLock { entries[key]?.contains { !$0.isCancelled } == true }
    }

    func cancelAll() {
        let (tasks, cancels) = lock.withLock { () -> ([Task<Void, Never>], [@Sendable () -> Void]) in
            isEnded = true
            defer {
                entries = [:]
                unkeyed = [:]
            }
            return (entries.values.flatMap { $0.map(\.task) }, Array(unkeyed.values))
        }
        for task in tasks { task.cancel() }
        for cancel in cancels { cancel() }
    }
}

/// A task's key: any `Hashable & Sendable` value (which makes the wrapper sendable).
struct _TaskKey: Hashable, @unchecked Sendable {
    let base: AnyHashable

    init(_ base: some Hashable & Sendable) {
        self.base = AnyHashable(base)
    }

    /// The id of every effect a reducer's global inputs (`Reducer.bind()`) start: they run for
    /// the store's life, so test stores do not count them as still running when a test ends.
    static let reducerInputs = _TaskKey(_ReducerInputs())
}

/// ``_TaskKey/reducerInputs``'s value: a type of its own, equal to no id a user can make.
private struct _ReducerInputs: Hashable, Sendable {}
