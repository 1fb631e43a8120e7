#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock's C words and the thread pointer (`_RippleLock.h`, `_RippleThread.h`), imported
/// publicly: the lock's operations are `@inlinable`, so a read compiled in a client module
/// takes the lock inline and must see these declarations.
public import _RippleThread
import _RippleRef

/// The one lock type Ripple uses: a recursive lock on a word, the same on every platform.
///
/// It is recursive because a computed value's derivation reads other nodes while the
/// evaluating thread holds the graph, and those reads take the same lock.
///
/// The lock is a word in `_RippleLock.h`, after the C library's mutex: taken with one
/// compare-and-swap; a thread that must sleep marks the word, and only the release of a marked
/// word wakes one sleeper. Sleeping and waking are the only platform-specific part: a futex on
/// Linux, elsewhere a table of `pthread` mutexes and condition variables (`_RippleLock.c`). The
/// release reads the word and stores 0 where the C library's mutex exchanges it: no locked
/// instruction, which halves the cost of an uncontended acquisition and release in a
/// multi-threaded process (5 ns a pair instead of 11 on the project's machine;
/// Benchmarks/README.md). A mark that a release
/// overwrites between its read and its store is found again by its sleeper within a
/// millisecond. The atomic operations are C atomics that ThreadSanitizer sees, unlike
/// `Synchronization.Mutex` on Linux (and available on macOS 14 / iOS 17, where `Atomic` is not).
///
/// A re-entrant acquisition only compares the owner word with the calling thread and counts,
/// which makes the many reads inside a derivation cheap. A thread can only read its own
/// identity from the owner word if it stored it itself, that is, while it holds the lock (it
/// clears the word before releasing it), so a relaxed load is enough to recognise a re-entrant
/// acquisition. Since the owner is a word of Ripple's, a thread can lend the lock it holds to a
/// helper while it waits for it (``lendToNewThread(stackSize:_:)``).
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
    /// The lock's words (see `_RippleLock.h`), allocated apart: they must not move. Reached
    /// through one pointer, so that taking the lock costs no reference counting and a
    /// re-entrant check two loads.
    ///
    /// Inlinable, like the lock's operations, so that a read compiled in the client takes the
    /// lock without a call.
    @usableFromInline let words: UnsafeMutablePointer<_ripple_lock_t>

    /// The owner's acquisitions not yet released: `_ripple_lock_t.depth`, read and written from
    /// Swift as plain memory at its offset, right after `owner`. Not through C: a call to a C
    /// function, even an inline one, is opaque to Swift's optimizer, and inlined into a client's
    /// read (`unlockIfNested()`, from `_endGeneralRead`) it made the client retain and release
    /// every handle it reads around the read (the dynamic benchmarks took 55–70 % longer). Not
    /// through `words.pointee` either: ThreadSanitizer sees that as an access to the whole
    /// struct, racing with other threads' atomic loads of `owner`. `LockTests` checks the offset.
    @inlinable
    var depth: Int {
        @inline(__always) get {
            UnsafeMutableRawPointer(words).load(fromByteOffset: MemoryLayout<UInt>.stride, as: Int.self)
        }
        @inline(__always) nonmutating set {
            UnsafeMutableRawPointer(words).storeBytes(
                of: newValue, toByteOffset: MemoryLayout<UInt>.stride, as: Int.self)
        }
    }

    /// A free lock.
    package init() {
        words = .allocate(capacity: 1)
        _ripple_lock_init(words)
    }

    deinit {
        words.deallocate()
    }

    /// For tests: the threads asleep, or about to be, until the lock is released.
    package var sleepersForTesting: Int {
        Int(_ripple_lock_sleepers(words))
    }

    /// For tests: the wake calls the calling thread has made so far, on any lock, for threads
    /// asleep in ``lock()``.
    package static var wakeCallsOfCallingThreadForTesting: Int {
        Int(_ripple_lock_wake_calls_of_calling_thread())
    }

    /// For tests: the wake calls made so far by ``broadcast()``.
    package var broadcastWakesForTesting: Int {
        Int(_ripple_lock_broadcast_wakes(words))
    }

    /// For tests: whether a thread marked the word before sleeping (see `_RippleLock.h`).
    package var isMarkedForTesting: Bool {
        _ripple_lock_is_marked(words)
    }

    /// For tests, with the lock held: overwrites the word's mark, as a release racing with a
    /// thread that marks it would (see `_RippleLock.h`).
    package func eraseMarkForTesting() {
        _ripple_lock_erase_mark_for_testing(words)
    }

    /// For tests: the threads in ``wait()``.
    package var waitersForTesting: Int {
        Int(_ripple_lock_broadcast_waiters(words))
    }

    /// The calling thread's identity (never 0), through `_callingThread()`: for the lock's owner,
    /// and for code that records which thread does something (the store's gate).
    @inlinable @inline(__always)
    package static var currentThread: UInt { _callingThread() }

    /// The calling thread's identity read in place (on Linux one load of the thread pointer,
    /// elsewhere `pthread_self()`; see `_RippleThread.h`), without the call `currentThread` makes, for `lock(as:)` in a
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
        if _ripple_lock_owner(words) == me {
            depth &+= 1
            return
        }
        _ripple_lock_acquire(words)
        _ripple_lock_set_owner(words, me)
        depth = 1
    }

    /// Releases the lock.
    @inlinable @inline(__always)
    package func unlock() {
        depth &-= 1
        if depth == 0 {
            _ripple_lock_set_owner(words, 0)
            _ripple_lock_release(words)
        }
    }

    /// Releases one level of a lock the calling thread holds more than once, and returns true;
    /// returns false, doing nothing, when this is the outermost level: then call `unlock()`.
    /// Inlined into reads inside a derivation, it makes no call.
    @inlinable @inline(__always)
    package func unlockIfNested() -> Bool {
        guard depth > 1 else { return false }
        depth &-= 1
        return true
    }

    /// Whether the calling thread holds the lock. One relaxed load: a thread finds its own
    /// identity in the owner word only if it stored it there itself, while holding the lock.
    @inline(__always)
    package var isHeldByCallingThread: Bool {
        isHeld(byThread: Self.currentThread)
    }

    /// Whether the thread `me` (the caller's identity, found as for `lock(as:)`) holds the lock.
    @inline(__always)
    package func isHeld(byThread me: UInt) -> Bool {
        _ripple_lock_owner(words) == me
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes, to which the calling
    /// thread, which holds the lock, lends it: the helper owns the lock (with the caller's
    /// acquisitions) while `body` runs, and the caller waits until it has handed it back. So
    /// `body` sees everything the caller did, and the caller everything `body` did. Returns 0,
    /// or the status with which the thread could not be started (`body` did not run).
    package func lendToNewThread(stackSize: Int, _ body: () -> Void) -> Int32 {
        let owner = Self.currentThread
        precondition(isHeld(byThread: owner), "Ripple internal error: lock lent by a thread that does not hold it")
        return withoutActuallyEscaping(body) { body in
            var loan = _LockLoan(words: words, owner: owner, body: body)
            return withUnsafeMutablePointer(to: &loan) { loan in
                _ripple_run_on_new_thread(stackSize, { _LockLoan.run($0) }, loan)
            }
        }
    }

    /// Whether the calling thread, which holds the lock, holds it once: its next `unlock()`
    /// releases it.
    package var isHeldOnce: Bool {
        depth == 1
    }

    /// Releases the lock, waits until another thread calls ``broadcast()``, and takes it again.
    ///
    /// The caller holds the lock exactly once (``isHeldOnce``) and re-checks its condition in a
    /// loop: wake-ups may be spurious.
    package func wait() {
        precondition(
            depth == 1, "Ripple: internal error: waiting while the graph is held re-entrantly")
        depth = 0
        _ripple_lock_set_owner(words, 0)
        _ripple_lock_wait_for_broadcast(words)
        _ripple_lock_set_owner(words, Self.currentThread)
        depth = 1
    }

    /// Wakes every thread in ``wait()`` (call with the lock held).
    package func broadcast() {
        _ripple_lock_broadcast(words)
    }

    /// For tests: whether the calling thread holds the lock.
    package var isHeldForTesting: Bool {
        isHeldByCallingThread
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

/// What a helper thread of ``_Lock/lendToNewThread(stackSize:_:)`` runs. Lives on the lending
/// thread's stack, which waits.
private struct _LockLoan {
    /// The lent lock's words (``_Lock/words``).
    let words: UnsafeMutablePointer<_ripple_lock_t>
    let owner: UInt
    let body: () -> Void

    static func run(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        let loan = pointer.unsafelyUnwrapped.assumingMemoryBound(to: _LockLoan.self).pointee
        _ripple_lock_set_owner(loan.words, _Lock.currentThread)
        loan.body()
        _ripple_lock_set_owner(loan.words, loan.owner)
        return nil
    }
}

/// A flag that is set once and read without a lock: the release of the setter's writes is
/// seen by a reader that sees the flag set (an acquire load).
///
/// A C word allocated on its own, beside the lock's words: `Atomic` needs macOS 15 / iOS 18,
/// and Ripple supports macOS 14 / iOS 17. An event's subscriber uses one for "cancelled",
/// which a delivery reads without the lock (see `_EventHandler`), and `dependencies(of:)` one
/// for its first run.
struct _OnceFlag: ~Copyable, @unchecked Sendable {
    // @unchecked: the word is only touched atomically.
    private let word = UnsafeMutablePointer<UInt>.allocate(capacity: 1)

    /// Creates a flag that is not set.
    init() {
        word.initialize(to: 0)
    }

    deinit {
        word.deallocate()
    }

    /// Whether the flag is set (an acquire load).
    var isSet: Bool { _ripple_once_word_load(word) != 0 }

    /// Sets the flag (a release; later calls do nothing).
    func set() {
        _ = _ripple_once_word_publish(word, 1)
    }

    /// Sets the flag if it is not set yet; returns whether this call set it.
    func setIfUnset() -> Bool {
        _ripple_once_word_publish(word, 1)
    }
}

// MARK: - A reference published once

/// A header and one reference published once, from none, and read without a lock: what an
/// origin that learns its name late is (`_NameableOrigin`, an `@Observed` property's).
///
/// The reference is the object's one element, a word: 0, or the address of the object it
/// retains, set once with a C atomic (`_ripple_once_word_publish`) and read with one, an
/// acquire load (`_ripple_once_word_load`), so a reader sees the published object as the thread
/// that published it left it. In the object rather than allocated apart (as ``_OnceFlag``'s
/// word is), so it costs no allocation of its own. A reference once published stays until this
/// object goes: a reader that keeps this object alive may use it without retaining it.
///
/// Subclass it (`final class Named: _OnceReferenceBuffer<Header, Object>`) and create one with
/// ``make(header:)``.
class _OnceReferenceBuffer<Header, Object: AnyObject>: ManagedBuffer<Header, UInt> {
    /// A new object of this class with `header`, no reference published.
    static func make(header: Header) -> Self {
        let made = _downcast(create(minimumCapacity: 1) { _ in header }, to: self)
        made.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
        return made
    }

    deinit {
        // A plain read: a deinitializer runs once no other thread can reach the object.
        let word = withUnsafeMutablePointerToElements { $0.pointee }
        if word != 0 { _Ref<Object>(bitPattern: word).release() }
    }

    /// Whether a reference was published (an acquire load).
    @inline(__always)
    final var isPublished: Bool {
        withUnsafeMutablePointerToElements { _ripple_once_word_load($0) } != 0
    }

    /// The published reference, if any (an acquire load): kept alive by this object.
    @inline(__always)
    final var published: Object? {
        let word = withUnsafeMutablePointerToElements { _ripple_once_word_load($0) }
        guard word != 0 else { return nil }
        return _Ref<Object>(bitPattern: word).object
    }

    /// Publishes `object`, retaining it until this object goes, unless a reference was published
    /// already (then `object` is not kept). Returns whether this call published it. Safe from
    /// any number of threads: the first to publish wins.
    @discardableResult
    final func publish(_ object: Object) -> Bool {
        let retained = _Ref(retaining: object)
        let won = withUnsafeMutablePointerToElements { _ripple_once_word_publish($0, retained.bitPattern) }
        if !won { retained.release() }
        return won
    }
}
