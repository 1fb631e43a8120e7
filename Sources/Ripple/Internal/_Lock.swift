#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock type Ripple uses: a recursive `pthread` mutex.
///
/// It is recursive because a computed value's derivation reads other nodes while the
/// evaluating thread holds the graph, and those reads take the same lock. Being a plain
/// `pthread` mutex, ThreadSanitizer understands it, unlike `Synchronization.Mutex` on Linux.
///
/// A non-copyable value rather than a class, so taking it costs no reference counting.
///
/// Every other file goes through this type; nothing else in Ripple locks.
@usableFromInline
package struct _Lock: ~Copyable, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "Ripple: pthread_mutex_init failed with status \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Acquires the lock, waiting if another thread holds it.
    @inline(__always)
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    @inline(__always)
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
