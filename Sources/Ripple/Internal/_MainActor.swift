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
