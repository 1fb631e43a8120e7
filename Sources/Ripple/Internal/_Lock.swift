#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if !canImport(Darwin)
import Synchronization
#endif

/// The one lock type Ripple uses: a recursive lock on a `pthread` mutex.
///
/// It is recursive because a computed value's derivation reads other nodes while the
/// evaluating thread holds the graph, and those reads take the same lock. Being a plain
/// `pthread` mutex (plus an `Atomic`), ThreadSanitizer understands it, unlike
/// `Synchronization.Mutex` on Linux.
///
/// On Linux a re-entrant acquisition only compares an atomic owner with the calling thread
/// and counts: no call into the C library, which makes the many reads inside a derivation
/// cheap. A thread can only read its own identity from `owner` if it stored it itself, that
/// is, while it holds the mutex (it clears `owner` before releasing it), so a relaxed load is
/// enough to recognise a re-entrant acquisition. On Apple platforms, where `Atomic` needs
/// macOS 15 / iOS 18 and Ripple supports macOS 14 / iOS 17, the mutex itself is recursive.
///
/// A non-copyable value rather than a class, so taking it costs no reference counting.
///
/// Every other file goes through this type; nothing else in Ripple locks.
@usableFromInline
package struct _Lock: ~Copyable, @unchecked Sendable {
    /// The lock's memory. A class, so that the atomic has a stable address (an `Atomic`
    /// stored in a struct may be read through a copy of the struct); reached unmanaged, so
    /// that taking the lock costs no reference counting.
    ///
    /// Inlinable, like the lock's operations, so that a read compiled in the client takes the
    /// lock without a call.
    @usableFromInline
    final class Storage {
        /// Allocated apart: a `pthread_mutex_t` must not move, and `&` on a property may pass a copy.
        @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Signalled when a condition that waiters of ``_Lock/wait()`` check may have changed.
        let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Acquisitions by the owner not yet released (touched only by the owner).
        @usableFromInline @exclusivity(unchecked) var depth = 0
        #if !canImport(Darwin)
        /// The thread holding the lock, or 0.
        @usableFromInline let owner = Atomic<UInt>(0)
        #endif

        init() {}
    }

    @usableFromInline let storage: Unmanaged<Storage>

    package init() {
        let storage = Storage()
        storage.mutex.initialize(to: pthread_mutex_t())
        #if canImport(Darwin)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(storage.mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        let status = pthread_mutex_init(storage.mutex, nil)
        #endif
        precondition(status == 0, "Ripple: pthread_mutex_init failed with status \(status)")
        storage.condition.initialize(to: pthread_cond_t())
        let conditionStatus = pthread_cond_init(storage.condition, nil)
        precondition(conditionStatus == 0, "Ripple: pthread_cond_init failed with status \(conditionStatus)")
        self.storage = .passRetained(storage)
    }

    deinit {
        storage._withUnsafeGuaranteedRef {
            pthread_mutex_destroy($0.mutex)
            $0.mutex.deallocate()
            pthread_cond_destroy($0.condition)
            $0.condition.deallocate()
        }
        storage.release()
    }

    #if canImport(Darwin)
    /// Acquires the lock, waiting if another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        storage._withUnsafeGuaranteedRef {
            _ = pthread_mutex_lock($0.mutex)
            $0.depth &+= 1
        }
    }

    /// Releases the lock.
    @inlinable @inline(__always)
    package func unlock() {
        storage._withUnsafeGuaranteedRef {
            $0.depth &-= 1
            _ = pthread_mutex_unlock($0.mutex)
        }
    }
    #else
    /// The calling thread's identity (never 0).
    @inlinable @inline(__always)
    static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Acquires the lock, waiting if another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        storage._withUnsafeGuaranteedRef { storage in
            let me = Self.currentThread
            if storage.owner.load(ordering: .relaxed) == me {
                storage.depth &+= 1
                return
            }
            pthread_mutex_lock(storage.mutex)
            storage.owner.store(me, ordering: .relaxed)
            storage.depth = 1
        }
    }

    /// Releases the lock.
    @inlinable @inline(__always)
    package func unlock() {
        storage._withUnsafeGuaranteedRef { storage in
            storage.depth &-= 1
            if storage.depth == 0 {
                storage.owner.store(0, ordering: .relaxed)
                pthread_mutex_unlock(storage.mutex)
            }
        }
    }
    #endif

    #if !canImport(Darwin)
    /// Makes the calling thread the lock's owner while `owner`, which holds it, waits for the
    /// calling thread to finish (a helper continuing the owner's work on a fresh stack). The
    /// mutex stays locked; the acquisitions held are the owner's. Hand it back with
    /// ``handBack(to:)`` before the owner resumes.
    package func takeOver(from owner: UInt) {
        storage._withUnsafeGuaranteedRef { storage in
            precondition(storage.owner.load(ordering: .relaxed) == owner, "Ripple internal error: lock taken over from a thread that does not hold it")
            storage.owner.store(Self.currentThread, ordering: .relaxed)
        }
    }

    /// Gives the lock back to `owner`, from which the calling thread took it over.
    package func handBack(to owner: UInt) {
        storage._withUnsafeGuaranteedRef { $0.owner.store(owner, ordering: .relaxed) }
    }
    #endif

    /// Whether the calling thread, which holds the lock, holds it once: its next `unlock()`
    /// releases it.
    package var isHeldOnce: Bool {
        storage._withUnsafeGuaranteedRef { $0.depth == 1 }
    }

    /// Releases the lock, waits until another thread calls ``broadcast()``, and takes it again.
    ///
    /// The caller holds the lock exactly once (``isHeldOnce``) and re-checks its condition in a
    /// loop: wake-ups may be spurious.
    package func wait() {
        storage._withUnsafeGuaranteedRef { storage in
            precondition(storage.depth == 1, "Ripple: internal error: waiting while the graph is held re-entrantly")
            storage.depth = 0
            #if canImport(Darwin)
            pthread_cond_wait(storage.condition, storage.mutex)
            #else
            storage.owner.store(0, ordering: .relaxed)
            pthread_cond_wait(storage.condition, storage.mutex)
            storage.owner.store(Self.currentThread, ordering: .relaxed)
            #endif
            storage.depth = 1
        }
    }

    /// Wakes every thread in ``wait()`` (call with the lock held).
    package func broadcast() {
        storage._withUnsafeGuaranteedRef { _ = pthread_cond_broadcast($0.condition) }
    }

    /// For tests: whether the calling thread holds the lock.
    package var isHeldForTesting: Bool {
        storage._withUnsafeGuaranteedRef { storage in
            #if canImport(Darwin)
            // A recursive mutex can be tried by its owner; another owner makes the try fail.
            guard pthread_mutex_trylock(storage.mutex) == 0 else { return false }
            defer { pthread_mutex_unlock(storage.mutex) }
            return storage.depth > 0
            #else
            return storage.owner.load(ordering: .relaxed) == Self.currentThread
            #endif
        }
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    package func withLock<R: ~Copyable>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
