import _RippleRef

/// Hands an event's values to a main-actor handler in the order they were sent
/// (`Event.subscribeOnMainActor`): at once when sent on the main actor with nothing waiting,
/// else through a queue that a main-actor task drains.
///
/// The subscription's handler holds the relay, and a drain task holds it weakly; the
/// subscription's end also ends the relay (``end()``), so that the values still queued are
/// dropped even when a drain is running (a handler that ends its own subscription).
final class _MainActorRelay<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `handle` is only called on the main actor (in `drain`, which runs there only,
    // and in `deliver` once it found the calling thread to be the main thread); the queue is
    // guarded by `lock`, and `isInDrain` is touched on the main actor only.
    /// The handler with its isolation dropped from its type, called only on the main actor.
    /// Debug builds check each call, as `MainActor.assumeIsolated` does; optimized builds call
    /// it as it is, as a main-actor reaction's body is called: the check cost about 1 000
    /// instructions per value and handler on Linux (`count-instructions.sh --store
    /// mainEvent10`).
    private let handle: (Value) -> Void
    private let lock = _Lock()
    // Guarded by `lock`:
    /// The values sent and not handled yet, in order.
    private var queued: [Value] = []
    /// Whether a drain is scheduled or running: a value sent meanwhile joins the queue. Set
    /// whenever `queued` holds a value, so that `deliver` on the main actor tests this flag
    /// alone (`queued.isEmpty`, in this generic class's unspecialized code, looked up the
    /// array's metadata and witness table on every value).
    private var isDraining = false
    /// Whether `drain` runs now (read and written only on the main actor): a value a handler
    /// sends joins the queue, and the running loop handles it after the current one, rather
    /// than inside it.
    private var isInDrain = false
    /// Set once the subscription has ended: nothing more is handled (guarded by `lock`).
    private var isEnded = false

    init(_ handler: @escaping @MainActor (Value) -> Void) {
        #if DEBUG
        handle = { value in MainActor.assumeIsolated { handler(value) } }
        #else
        handle = _assumingMainActor(handler)
        #endif
    }

    /// Handles `value` now if the caller is on the main actor and nothing waits before it;
    /// otherwise queues it behind the others.
    func deliver(_ value: Value) {
        guard _isRunningOnMainActor() else {
            let schedules = lock.withLock { () -> Bool in
                if isEnded { return false }
                queued.append(value)
                if isDraining { return false }
                isDraining = true
                return true
            }
            if schedules { Task { @MainActor [weak self] in self?.drain() } }
            return
        }
        // On the main actor (the thread was checked above). Nothing waits (the common case):
        // handled now.
        lock.lock()
        if isEnded {
            lock.unlock()
            return
        }
        if !isDraining {
            lock.unlock()
            handle(value)
            return
        }
        queued.append(value)
        lock.unlock()
        // Handle what waits, in order, then this one (unless a drain runs further down the
        // stack: it handles this one after the current one).
        if !isInDrain { drain() }
    }

    /// Handles the queued values in order, and those queued while it runs. Runs on the main
    /// actor only: from the main-actor task `deliver` schedules, or from `deliver` on the main
    /// thread.
    private func drain() {
        isInDrain = true
        defer { isInDrain = false }
        while let next = lock.withLock({ () -> Value? in
            if queued.isEmpty || isEnded {
                isDraining = false
                return nil
            }
            isDraining = true
            return queued.removeFirst()
        }) {
            handle(next)
        }
    }

    /// Ends the relay with its subscription: the values queued are dropped, and a drain under
    /// way stops before the next one.
    func end() {
        let dropped = lock.withLock { () -> [Value] in
            isEnded = true
            defer { queued = [] }
            return queued
        }
        // Released after the lock, as they may be the last references to user objects.
        _ = dropped
    }
}
