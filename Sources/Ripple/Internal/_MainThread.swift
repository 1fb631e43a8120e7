#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which thread the main actor runs on, for the main-actor API (``MainActorComputed``,
/// ``observeOnMainActor(isolation:file:line:_:)``): a main-actor run triggered on the main
/// thread runs at once, and a main-actor derivation is refused anywhere else.
///
/// On Apple platforms the main actor's executor is the main thread, and Ripple asks the system
/// (`pthread_main_np`). Elsewhere the main actor's jobs run on the main dispatch queue, which
/// another thread may drain: Ripple asks the queue (`_isOnMainActor()`), and also counts the
/// process's first thread outside any queue (a command-line program's top-level code).
extension _Graph {
    /// Whether the calling thread is the main thread.
    @inline(__always)
    func isOnMainThread() -> Bool {
        #if canImport(Darwin)
        return pthread_main_np() != 0
        #else
        // The main queue's jobs (the main actor's) may be drained by a thread other than the
        // process's first one (as under Swift Testing on Linux), and not always by the same
        // one: ask the queue. Code on the process's first thread outside any queue (a
        // command-line program's top-level code) is on the main actor too. That thread is
        // asked about first: its answer is kept per thread, where asking the queue costs
        // about 190 instructions (`DispatchQueue.getSpecific`) on every main-actor run.
        return _ThreadContext.current.isProcessMainThread || _isOnMainActor()
        #endif
    }
}

/// Whether the calling thread is the process's first thread: on Linux its thread id is the
/// process id, read from `/proc/thread-self`, which links to `<pid>/task/<tid>`; on Apple
/// platforms, `pthread_main_np()`. Asked once per thread (`_ThreadContext.isProcessMainThread`).
func _callerIsProcessMainThread() -> Bool {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
    guard count > 0 else { return false }
    let parts = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(
        separator: "/")
    return parts.count == 3 && parts[0] == parts[2] && Int32(parts[0]) == getpid()
    #elseif canImport(Darwin)
    return pthread_main_np() != 0
    #else
    return false
    #endif
}

/// Whether the calling code runs on the main actor's executor, as the main-actor API decides
/// it (see `_Graph.isOnMainThread()`): for the upper layers' main-actor schedulers, which run
/// at once when this is true.
package func _isRunningOnMainActor() -> Bool {
    _graph.isOnMainThread()
}
