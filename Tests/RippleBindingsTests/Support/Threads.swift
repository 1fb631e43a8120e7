#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Helpers for tests that hold one thread at a chosen point while others go on: a gate that a
// thread waits at (with a bound, so that a test never hangs), and plain threads for the code
// that blocks (a test must not block the cooperative pool's few threads for long).

/// A one-shot gate: threads wait at it until some thread opens it.
final class Gate: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var opened = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// Whether the gate was opened.
    var isOpen: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return opened
    }

    /// Opens the gate: every waiting thread goes on, and later waits return at once.
    func open() {
        pthread_mutex_lock(&mutex)
        opened = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until the gate is open, at most `milliseconds`; returns whether it opened.
    @discardableResult
    func wait(milliseconds: Int) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + time_t(milliseconds / 1000 + nanoseconds / 1_000_000_000)
        deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !opened {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { break }
        }
        return opened
    }
}

/// Runs `body` on a new plain thread (not one of the cooperative pool's) and returns its
/// result; the calling task is suspended meanwhile, not blocked.
func onNewThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
    await withCheckedContinuation { continuation in
        startThread { continuation.resume(returning: body()) }
    }
}

/// Starts a detached plain thread running `body`.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
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
            Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue().body()
            return nil
        }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
    pthread_detach(thread)
    #else
    pthread_detach(thread!)
    #endif
}
