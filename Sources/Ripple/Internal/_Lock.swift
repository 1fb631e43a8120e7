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
public import _RippleThread

/// The one lock type Ripple uses: a recursive lock, on a futex on Linux and on a `pthread`
/// mutex on Apple platforms.
///
/// It is recursive because a computed value's derivation reads other nodes while the
/// evaluating thread holds the graph, and those reads take the same lock.
///
/// On Linux the lock is a futex word in `_RippleLock.h`, after the C library's mutex: taken
/// with one compare-and-swap; a thread that must sleep marks the word, and only the release of
/// a marked word makes a system call, to wake one sleeper. The release reads the word and
/// stores 0 where the C library's mutex exchanges it: no locked instruction, which halves the
/// cost of an uncontended acquisition and release in a multi-threaded process (5 ns a pair
/// instead of 11 on the project's machine; Benchmarks/README.md). A mark that a release
/// overwrites between its read and its store is found again by its sleeper within a
/// millisecond. The atomic operations are C atomics that ThreadSanitizer sees, unlike
/// `Synchronization.Mutex` on Linux.
///
/// On Linux a re-entrant acquisition only compares an atomic owner with the calling thread
/// and counts, which makes the many reads inside a derivation cheap. A thread can only read
/// its own identity from `owner` if it stored it itself, that is, while it holds the lock (it
/// clears `owner` before releasing it), so a relaxed load is enough to recognise a re-entrant
/// acquisition. On Apple platforms, where `Atomic` needs macOS 15 / iOS 18 and Ripple supports
/// macOS 14 / iOS 17, the mutex itself is recursive.
///
/// The identity is the thread pointer on Linux (one load; `_RippleThread.h`), `pthread_self()`
/// elsewhere. It must be the identity of the thread the code runs on *now*. Both are constant
/// to the optimizer (the C library declares `pthread_self()` a constant function), so it may
/// compute one once and reuse it: across a loop, and, inside an `async` function, across an
/// `await` after which the code runs on another thread (the known hazard of coroutines, LLVM
/// issue 47177). A read inlined into such a function would then compare `owner` with the
/// identity of the thread it started on, take the lock as re-entrant while that thread holds
/// it, and work on the graph at the same time as its owner. So the identity is only ever found
/// through `_callingThread()`, a call the optimizer can neither inline nor reason about, except
/// in functions that are synchronous and marked `@inline(never)`: the fast read functions, a
/// write's `_lockForWrite`, a batch's commit (`commitStaged`), its sole write's slot, and a
/// reaction's job taking the lock back after the body (`_Graph.perform`)
/// (`threadOfNonInlinedSynchronousCaller`).
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
        #if canImport(Darwin)
        /// Allocated apart: a `pthread_mutex_t` must not move, and `&` on a property may pass a copy.
        @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Signalled when a condition that waiters of ``_Lock/wait()`` check may have changed.
        let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        #else
        /// The lock's words (see `_RippleLock.h`), allocated apart: they must not move.
        @usableFromInline let words = UnsafeMutablePointer<_ripple_lock_t>.allocate(capacity: 1)
        #endif
        /// Acquisitions by the owner not yet released (touched only by the owner).
        @usableFromInline @exclusivity(unchecked) var depth = 0
        #if !canImport(Darwin)
        /// The thread holding the lock, or 0.
        @usableFromInline let owner = Atomic<UInt>(0)
        #endif

        init() {}
    }

    @usableFromInline let storage: Unmanaged<Storage>

    /// A free lock.
    package init() {
        let storage = Storage()
        #if canImport(Darwin)
        storage.mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(storage.mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "Ripple: pthread_mutex_init failed with status \(status)")
        storage.condition.initialize(to: pthread_cond_t())
        let conditionStatus = pthread_cond_init(storage.condition, nil)
        precondition(conditionStatus == 0, "Ripple: pthread_cond_init failed with status \(conditionStatus)")
        #else
        _ripple_lock_init(storage.words)
        #endif
        self.storage = .passRetained(storage)
    }

    deinit {
        storage._withUnsafeGuaranteedRef {
            #if canImport(Darwin)
            pthread_mutex_destroy($0.mutex)
            $0.mutex.deallocate()
            pthread_cond_destroy($0.condition)
            $0.condition.deallocate()
            #else
            $0.words.deallocate()
            #endif
        }
        storage.release()
    }

    #if !canImport(Darwin)
    /// For tests: the threads asleep, or about to be, until the lock is released.
    package var sleepersForTesting: Int {
        storage._withUnsafeGuaranteedRef { Int(_ripple_lock_sleepers($0.words)) }
    }

    /// For tests: the wake calls the calling thread has made so far, on any lock, for threads
    /// asleep in ``lock()``.
    package static var wakeCallsOfCallingThreadForTesting: Int {
        Int(_ripple_lock_wake_calls_of_calling_thread())
    }

    /// For tests: the wake calls made so far by ``broadcast()``.
    package var broadcastWakesForTesting: Int {
        storage._withUnsafeGuaranteedRef { Int(_ripple_lock_broadcast_wakes($0.words)) }
    }

    /// For tests: whether a thread marked the word before sleeping (see `_RippleLock.h`).
    package var isMarkedForTesting: Bool {
        storage._withUnsafeGuaranteedRef { _ripple_lock_is_marked($0.words) }
    }

    /// For tests, with the lock held: overwrites the word's mark, as a release racing with a
    /// thread that marks it would (see `_RippleLock.h`).
    package func eraseMarkForTesting() {
        storage._withUnsafeGuaranteedRef { _ripple_lock_erase_mark_for_testing($0.words) }
    }

    /// For tests: the threads in ``wait()``.
    package var waitersForTesting: Int {
        storage._withUnsafeGuaranteedRef { Int(_ripple_lock_broadcast_waiters($0.words)) }
    }
    #endif

    /// The calling thread's identity (never 0), through `_callingThread()`: for the lock's owner
    /// on Linux, and for code that records which thread does something (the store's gate).
    @inlinable @inline(__always)
    package static var currentThread: UInt { _callingThread() }

    #if canImport(Darwin)
    /// Acquires the lock, waiting if another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        storage._withUnsafeGuaranteedRef {
            _ = pthread_mutex_lock($0.mutex)
            $0.depth &+= 1
        }
    }

    /// The calling thread's identity as `lock(as:)` takes it: unused here (the recursive mutex
    /// knows its owner).
    @inline(__always)
    static var threadOfNonInlinedSynchronousCaller: UInt { 0 }

    /// `lock()`: the recursive mutex knows its owner.
    @inlinable @inline(__always)
    package func lock(as me: UInt) {
        lock()
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
    /// The calling thread's identity read in place (on Linux one load of the thread pointer,
    /// see `_RippleThread.h`), without the call `currentThread` makes, for `lock(as:)` in a
    /// function that is synchronous and marked `@inline(never)` only: there it is computed on
    /// the thread that runs the function (see the type's discussion). Anywhere else, use
    /// `currentThread`.
    @inline(__always)
    static var threadOfNonInlinedSynchronousCaller: UInt {
        UInt(_ripple_current_thread())
    }

    /// Acquires the lock, waiting if another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        lock(as: Self.currentThread)
    }

    /// `lock()`, with the calling thread's identity found by the caller (`currentThread`, or
    /// `threadOfNonInlinedSynchronousCaller` where that is allowed).
    @inlinable @inline(__always)
    package func lock(as me: UInt) {
        storage._withUnsafeGuaranteedRef { storage in
            if storage.owner.load(ordering: .relaxed) == me {
                storage.depth &+= 1
                return
            }
            _ripple_lock_acquire(storage.words)
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
                _ripple_lock_release(storage.words)
            }
        }
    }
    #endif

    /// Releases one level of a lock the calling thread holds more than once, and returns true;
    /// returns false, doing nothing, when this is the outermost level (or on Apple platforms,
    /// whose recursive mutex counts its own levels): then call `unlock()`. Inlined into reads
    /// inside a derivation, it makes no call.
    @inlinable @inline(__always)
    package func unlockIfNested() -> Bool {
        #if canImport(Darwin)
        return false
        #else
        return storage._withUnsafeGuaranteedRef { storage in
            guard storage.depth > 1 else { return false }
            storage.depth &-= 1
            return true
        }
        #endif
    }

    #if !canImport(Darwin)
    /// Whether the calling thread holds the lock. One relaxed load: a thread finds its own
    /// identity in `owner` only if it stored it there itself, while holding the mutex.
    @inline(__always)
    package var isHeldByCallingThread: Bool {
        isHeld(byThread: Self.currentThread)
    }

    /// Whether the thread `me` (the caller's identity, found as for `lock(as:)`) holds the lock.
    @inline(__always)
    package func isHeld(byThread me: UInt) -> Bool {
        storage._withUnsafeGuaranteedRef { $0.owner.load(ordering: .relaxed) == me }
    }

    /// Makes the calling thread the lock's owner while `owner`, which holds it, waits for the
    /// calling thread to finish (a helper continuing the owner's work on a fresh stack). The
    /// mutex stays locked; the acquisitions held are the owner's. Hand it back with
    /// ``handBack(to:)`` before the owner resumes.
    package func takeOver(from owner: UInt) {
        storage._withUnsafeGuaranteedRef { storage in
            precondition(
                storage.owner.load(ordering: .relaxed) == owner,
                "Ripple internal error: lock taken over from a thread that does not hold it")
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
            _ripple_lock_wait_for_broadcast(storage.words)
            storage.owner.store(Self.currentThread, ordering: .relaxed)
            #endif
            storage.depth = 1
        }
    }

    /// Wakes every thread in ``wait()`` (call with the lock held).
    package func broadcast() {
        #if canImport(Darwin)
        storage._withUnsafeGuaranteedRef { _ = pthread_cond_broadcast($0.condition) }
        #else
        storage._withUnsafeGuaranteedRef { _ripple_lock_broadcast($0.words) }
        #endif
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
            return isHeldByCallingThread
            #endif
        }
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    ///
    /// Inlinable, so that the upper modules' calls are specialized: a generic call across
    /// modules looks up the metadata of `R` on every call.
    @inlinable @inline(__always)
    package func withLock<R: ~Copyable>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The calling thread's identity (never 0), as the lock compares it.
///
/// Opaque to the optimizer on purpose (see `_Lock`): not inlined (`@inline(never)`), and not
/// optimized (`@_optimize(none)`), so that no attribute is inferred from its body either. Every
/// call is a real call, made where the code runs now: the result is never reused across a
/// loop or an `await`.
@usableFromInline @inline(never) @_optimize(none)
func _callingThread() -> UInt {
    UInt(_ripple_current_thread())
}
