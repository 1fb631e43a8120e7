import Dispatch

/// Whether the calling code runs on the main actor's executor: the main dispatch queue.
///
/// Not the same as "on the main thread": on Linux (and in a program that called
/// `dispatchMain()`), the main queue may be drained by another thread. A queue-specific value
/// set on the main queue is visible exactly to code that runs on it.
func _isOnMainActor() -> Bool {
    DispatchQueue.getSpecific(key: _mainQueueKey) != nil
}

/// Marks the main queue (set once, from any thread: `setSpecific` is thread-safe).
private let _mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// A value a nonisolated initializer of a main-actor class sets, that only main-actor code
/// reads.
///
/// Swift lets a nonisolated initializer set only `Sendable` stored properties of a main-actor
/// class; this holds one that need not be, and gives it back to main-actor code only (the
/// getter is main-actor isolated, so the compiler checks every read).
struct _MainActorOwned<Value>: @unchecked Sendable {
    // @unchecked: `stored` is set once, by `init`, before the value is shared, and read only
    // through the main-actor `value`.
    private let stored: Value

    /// Holds `value`, set from any isolation before it is shared.
    nonisolated init(_ value: Value) {
        stored = value
    }

    /// The value, read on the main actor.
    @MainActor var value: Value {
        @inline(__always) get { stored }
    }
}
