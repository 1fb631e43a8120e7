import Ripple

/// The tasks a store owns, by key: cancelled with the store.
final class _StoreTasks: @unchecked Sendable {
    private struct Entry {
        let id: UInt64
        let task: Task<Void, Never>
    }

    private let lock = _Lock()
    /// The tasks started under each key that have not ended, oldest first.
    private var entries: [_TaskKey: [Entry]] = [:]
    private var nextID: UInt64 = 0
    private var isEnded = false

    func attach<State>(to core: _StoreCore<State>) {
        _ = core.onEnd { [self] in cancelAll() }
    }

    /// Starts `operation` under `key`. `.replace` cancels the tasks running under the key;
    /// `.enqueue` runs after the last of them.
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
            entries[key] = [Entry(id: id, task: task)]
        case .enqueue:
            let previous = running.last?.task
            task = Task(priority: priority) { [self] in
                await previous?.value
                if !Task.isCancelled { await operation() }
                finish(key, id)
            }
            entries[key, default: []].append(Entry(id: id, task: task))
        }
        lock.unlock()
        if case .replace = policy {
            for entry in running { entry.task.cancel() }
        }
        return task
    }

    private func finish(_ key: _TaskKey, _ id: UInt64) {
        lock.withLock {
            guard var list = entries[key], let index = list.firstIndex(where: { $0.id == id }) else { return }
            list.remove(at: index)
            entries[key] = list.isEmpty ? nil : list
        }
    }

    func cancel(_ key: _TaskKey) {
        let list = lock.withLock { entries.removeValue(forKey: key) ?? [] }
        for entry in list { entry.task.cancel() }
    }

    func isRunning(_ key: _TaskKey) -> Bool {
        lock.withLock { entries[key] != nil }
    }

    func cancelAll() {
        let tasks = lock.withLock { () -> [Task<Void, Never>] in
            isEnded = true
            defer { entries = [:] }
            return entries.values.flatMap { $0.map(\.task) }
        }
        for task in tasks { task.cancel() }
    }
}

/// A task's key: any `Hashable & Sendable` value (which makes the wrapper sendable).
struct _TaskKey: Hashable, @unchecked Sendable {
    let base: AnyHashable

    init(_ base: some Hashable & Sendable) {
        self.base = AnyHashable(base)
    }
}
