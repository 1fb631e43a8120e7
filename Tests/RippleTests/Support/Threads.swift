#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Ripple

/// A one-shot signal between two threads, built on the one lock type plus polling-free waiting.
final class DispatchSemaphoreLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var signalled = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func signal() {
        pthread_mutex_lock(&mutex)
        signalled = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while !signalled { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
}

/// Starts a plain thread running `body`.
enum Thread {
    static func detachNewThreadLike(_ body: @escaping @Sendable () -> Void) {
        let thread = start(body)
        pthread_detach(thread)
    }

    /// Runs `body` on a new thread and returns once that thread has exited, its thread-local
    /// destructors included.
    static func runUntilExited(_ body: @escaping @Sendable () -> Void) {
        let thread = start(body)
        pthread_join(thread, nil)
    }

    private static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Box {
            let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(
            &thread, nil,
            { raw in
                let pointer: UnsafeMutableRawPointer? = raw
                let box = Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Glibc)
        return thread
        #else
        return thread!
        #endif
    }
}
