import Ripple

/// Hands every one of a stream of values to a scheduler, in order, none dropped: values that
/// arrive while a drain is on its way wait for it, and one drain delivers them one after the
/// other (so deliveries never overlap, even on a scheduler that runs jobs concurrently).
/// Once stopped, nothing more is delivered, not even values already waiting.
final class _InOrder<Value: Sendable>: @unchecked Sendable {
    private let lock = _Lock()
    private var pending: [Value] = []
    private var isDraining = false
    private var isStopped = false
    private let scheduler: BindingScheduler
    private let deliver: @Sendable (Value) -> Void

    init(scheduler: BindingScheduler, deliver: @escaping @Sendable (Value) -> Void) {
        self.scheduler = scheduler
        self.deliver = deliver
    }

    /// Delivers `value` after those before it: at once when the scheduler runs here and
    /// nothing waits, otherwise from the drain.
    func send(_ value: Value) {
        let runsHere = scheduler.runsAtOnce()
        let startDrain = lock.withLock { () -> Bool in
            if isStopped { return false }
            pending.append(value)
            if isDraining { return false }
            isDraining = true
            return true
        }
        guard startDrain else { return }
        if runsHere { drain() } else { scheduler.enqueue { [self] in drain() } }
    }

    /// Delivers nothing more.
    func stop() {
        lock.withLock {
            isStopped = true
            pending.removeAll()
        }
    }

    /// Delivers what waits, one value at a time, outside the lock; a value sent by a delivery
    /// (a handler that writes what it follows) is delivered after it, by this drain.
    private func drain() {
        while let next = lock.withLock({ () -> Value? in
            guard !isStopped, !pending.isEmpty else {
                isDraining = false
                return nil
            }
            return pending.removeFirst()
        }) {
            deliver(next)
        }
    }
}
