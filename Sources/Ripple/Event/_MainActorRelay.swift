/// Hands an event's values to a main-actor handler in the order they were sent
/// (`Event.subscribeOnMainActor`): at once when sent on the main actor with nothing waiting,
/// else through a queue that a main-actor task drains.
///
/// The subscription's handler holds the relay, and a drain task holds it weakly: once the
/// subscription ends, the values still queued are dropped with it.
final class _MainActorRelay<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `handler` is only called on the main actor (in `drain`, isolated to it, and
    // under `MainActor.assumeIsolated` on the main actor's thread); the queue is guarded by
    // `lock`.
    private let handler: @MainActor (Value) -> Void
    private let lock = _Lock()
    // Guarded by `lock`:
    /// The values sent and not handled yet, in order.
    private var queued: [Value] = []
    /// Whether a drain is scheduled or running: a value sent meanwhile joins the queue.
    private var isDraining = false
    /// Whether `drain` runs now (read and written only on the main actor): a value a handler
    /// sends joins the queue, and the running loop handles it after the current one, rather
    /// than inside it.
    private var isInDrain = false

    init(_ handler: @escaping @MainActor (Value) -> Void) {
        self.handler = handler
    }

    /// Handles `value` now if the caller is on the main actor and nothing waits before it;
    /// otherwise queues it behind the others.
    func deliver(_ value: Value) {
        guard _isRunningOnMainActor() else {
            let schedules = lock.withLock { () -> Bool in
                queued.append(value)
                if isDraining { return false }
                isDraining = true
                return true
            }
            if schedules { Task { @MainActor [weak self] in self?.drain() } }
            return
        }
        let handlesNow = lock.withLock { () -> Bool in
            if queued.isEmpty, !isDraining { return true }
            queued.append(value)
            return false
        }
        MainActor.assumeIsolated {
            if handlesNow {
                handler(value)
            } else if !isInDrain {
                // On the main actor already: handle what waits, in order, then this one.
                drain()
            }
        }
    }

    /// Handles the queued values in order, and those queued while it runs.
    @MainActor
    private func drain() {
        isInDrain = true
        defer { isInDrain = false }
        while let next = lock.withLock({ () -> Value? in
            if queued.isEmpty {
                isDraining = false
                return nil
            }
            isDraining = true
            return queued.removeFirst()
        }) {
            handler(next)
        }
    }
}
