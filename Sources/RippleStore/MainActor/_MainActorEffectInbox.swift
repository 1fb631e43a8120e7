import Ripple

/// The way into a ``MainActorReducerStore`` from its effects, which run on other threads: the
/// actions they send and the ends of their `create` continuations, queued in order and taken
/// out by one main-actor job at a time. It also keeps how to cancel each running effect, so
/// that the store's `deinit` (on any thread) can cancel them.
///
/// `@unchecked Sendable`: every field is guarded by `lock`. The actions are not `Sendable`:
/// each is `sending`, handed over by its effect, and only the main actor takes them out.
package final class _MainActorEffectInbox<Action>: @unchecked Sendable {
    enum Item {
        case action(Action, _EffectToken)
        case ended(UInt64)
    }

    private let lock = _Lock()
    private var items: [Item] = []
    private var isScheduled = false
    private var isEnded = false
    private var cancels: [UInt64: @Sendable () -> Void] = [:]
    /// The running effects (keys of `cancels`) that are the reducer's global inputs.
    private var inputs: Set<UInt64> = []
    private var drain: (@MainActor @Sendable () -> Void)?

    init() {}

    /// Sets the main-actor job that takes the items out (`take()`).
    func connect(_ drain: @escaping @MainActor @Sendable () -> Void) {
        lock.withLock { self.drain = drain }
    }

    /// Queues `action`, sent by the effect of `token`, for the main actor.
    func append(_ action: sending Action, from token: _EffectToken) {
        lock.lock()
        if isEnded {
            lock.unlock()
            return
        }
        items.append(.action(action, token))
        scheduleLocked()
    }

    /// Queues the end of the `create` effect `number`.
    func ended(_ number: UInt64) {
        lock.lock()
        if isEnded {
            lock.unlock()
            return
        }
        items.append(.ended(number))
        scheduleLocked()
    }

    /// Schedules the drain job unless one is scheduled, and unlocks (lock held).
    private func scheduleLocked() {
        let drain = isScheduled ? nil : self.drain
        if drain != nil { isScheduled = true }
        lock.unlock()
        if let drain {
            Task { @MainActor in drain() }
        }
    }

    /// Takes the queued items out, in order, on the main actor.
    @MainActor
    func take() -> [Item] {
        lock.withLock {
            isScheduled = false
            defer { items = [] }
            return items
        }
    }

    /// Whether items wait for the drain job (for test stores).
    package var hasItems: Bool {
        lock.withLock { !items.isEmpty }
    }

    /// How many effects are running: registered and not finished or cancelled.
    package var runningCount: Int {
        lock.withLock { cancels.count }
    }

    /// How many effects are running apart from the reducer's global inputs (those
    /// `Reducer.bind()` started, which run for the store's life): what a test store reports as
    /// still running at the end of a test. Readable from any thread (a test store's `deinit`).
    package var runningActionEffectCount: Int {
        lock.withLock { cancels.count - inputs.count }
    }

    /// Records how to cancel the running effect `number`, and whether it is one of the
    /// reducer's global inputs.
    func register(_ number: UInt64, isInput: Bool, cancel: @escaping @Sendable () -> Void) {
        lock.withLock {
            cancels[number] = cancel
            if isInput { inputs.insert(number) }
        }
    }

    /// Forgets the effect `number`; returns how to cancel it.
    @discardableResult
    func unregister(_ number: UInt64) -> (@Sendable () -> Void)? {
        lock.withLock {
            inputs.remove(number)
            return cancels.removeValue(forKey: number)
        }
    }

    /// Cancels every running effect and drops the queued items; with `ending`, for good (the
    /// store was released). The cancellations run with the lock released.
    package func cancelAll(ending: Bool) {
        let (cancels, dropped) = lock.withLock { () -> ([@Sendable () -> Void], [Item]) in
            if ending { isEnded = true }
            defer {
                self.cancels = [:]
                inputs = []
                items = []
            }
            return (Array(self.cancels.values), items)
        }
        _ = dropped  // released with the lock released
        for cancel in cancels { cancel() }
    }
}
