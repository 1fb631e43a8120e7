// The word of Ripple's lock, and its operations (see `_Lock` in `_Lock.swift`): the same lock on
// every platform. Only the primitive that puts a thread to sleep on a word and wakes it differs:
// a futex on Linux, elsewhere a table of mutexes and condition variables keyed by the word's
// address (`_RippleLock.c`, tested on Linux too through `_ripple_parking_*`).
//
// A futex lock after the C library's (Drepper, "Futexes Are Tricky"): 0 free, 1 held, 2 held
// with a thread that may sleep until it is released. A thread that must sleep marks the word 2
// first, and only the release of a marked word makes a system call, to wake one sleeper. A
// thread that takes the lock after sleeping or spinning marks it if another thread sleeps
// (`sleeping`), so that its release wakes the next one.
//
// One difference: the release reads the word and then stores 0, where the C library's mutex
// exchanges it atomically (a locked instruction, about half the cost of an uncontended
// acquisition and release). A thread that marks the word between that read and that store has
// its mark overwritten, and the release wakes nobody; nor does the release of a thread that
// then takes the lock on the fast path (it does not look at `sleeping`). So a sleeper never
// sleeps longer than a millisecond at a time: it then looks again, and marks again. The race
// needs the waiter's mark to fall between the release's read and its store, and the waiter to
// be asleep before the store (the releasing thread interrupted there; on weakly ordered
// processors the read may be satisfied early, which widens the window a little); it costs
// that waiter a millisecond at most. The price of the slices: while another thread holds the
// lock for long (a long derivation), each sleeper wakes once a millisecond to look.
//
// The fast paths are inline here (so that Swift inlines them, and sanitizers see their atomic
// operations); the paths that sleep and wake are in `_RippleLock.c`.
#ifndef RIPPLE_LOCK_H
#define RIPPLE_LOCK_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/// The words of one lock. Allocated by Swift, which must not move them.
typedef struct {
    /// The thread that holds the lock (`_ripple_current_thread()`), or 0. Set by the owner after
    /// it acquires `word` and cleared before it releases it, so a thread finds its own identity
    /// here only while it holds the lock: a relaxed load recognises a re-entrant acquisition.
    uintptr_t owner;
    /// The owner's acquisitions not yet released (touched only by the owner, without atomics).
    /// Right after `owner`: Swift reads and writes it at that offset (`_Lock.depth`).
    intptr_t depth;
    /// 0: free; 1: held; 2: held, and a thread may sleep until it is released.
    uint32_t word;
    /// Threads inside, or about to enter, the sleep on `word`.
    uint32_t sleeping;
    /// Bumped by `_ripple_lock_broadcast`; threads in `_ripple_lock_wait_for_broadcast` sleep on it.
    uint32_t signal;
    /// Threads in `_ripple_lock_wait_for_broadcast` (added with the lock held), for tests.
    uint32_t signalWaiters;
    /// 1: a thread began to wait since the last broadcast, which must wake it (changed with
    /// the lock held). Later broadcasts find it 0 and make no call: the threads that slept are
    /// awake, or see `signal` changed and do not sleep.
    uint32_t signalPending;
    /// For tests: the wake calls made for `signal` (counted with the lock held).
    uint32_t signalWakes;
} _ripple_lock_t;

/// Initializes `lock` as free.
void _ripple_lock_init(_ripple_lock_t *lock);

/// Acquires `lock` after the fast attempt failed: spins briefly, then sleeps.
void _ripple_lock_acquire_slow(_ripple_lock_t *lock);

/// Wakes one thread asleep on `lock`, just released from a marked word. Touches no memory of
/// the lock (another thread may have freed it since the release).
void _ripple_lock_wake(_ripple_lock_t *lock);

/// For tests: the wake calls the calling thread made on any lock (`_ripple_lock_wake`), kept
/// per thread because the lock's memory may be gone when one is made.
uint32_t _ripple_lock_wake_calls_of_calling_thread(void);

/// Releases `lock` (held once by the caller), sleeps until `_ripple_lock_broadcast` is called
/// after this call began, and acquires `lock` again. May return early (a spurious wake-up).
void _ripple_lock_wait_for_broadcast(_ripple_lock_t *lock);

/// Wakes every thread in `_ripple_lock_wait_for_broadcast` (call with the lock held).
void _ripple_lock_broadcast(_ripple_lock_t *lock);

/// Acquires `lock` if it is free. Returns whether it did.
static inline __attribute__((always_inline)) bool _ripple_lock_try(_ripple_lock_t *lock) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(&lock->word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Acquires `lock`, waiting if another thread holds it.
static inline __attribute__((always_inline)) void _ripple_lock_acquire(_ripple_lock_t *lock) {
    if (__builtin_expect(!_ripple_lock_try(lock), 0)) _ripple_lock_acquire_slow(lock);
}

/// Releases `lock`, and wakes a sleeper if the word was marked.
static inline __attribute__((always_inline)) void _ripple_lock_release(_ripple_lock_t *lock) {
    uint32_t state = __atomic_load_n(&lock->word, __ATOMIC_RELAXED);
    __atomic_store_n(&lock->word, 0, __ATOMIC_RELEASE);
    // Released: the lock's memory may already be freed by its next owner. The wake only passes
    // its address to the kernel, which wakes nobody then.
    if (__builtin_expect(state != 1, 0)) _ripple_lock_wake(lock);
}

/// For tests: the threads asleep (or about to be) until `lock` is released, those waiting
/// for a broadcast, the wake calls broadcasts made, and whether the word is marked.
static inline uint32_t _ripple_lock_sleepers(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->sleeping, __ATOMIC_RELAXED);
}
static inline uint32_t _ripple_lock_broadcast_waiters(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->signalWaiters, __ATOMIC_RELAXED);
}
static inline uint32_t _ripple_lock_broadcast_wakes(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->signalWakes, __ATOMIC_RELAXED);
}
static inline bool _ripple_lock_is_marked(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->word, __ATOMIC_RELAXED) == 2;
}

/// For tests: overwrites the mark of `lock`, held by the caller, as a release racing with a
/// thread that marks it would.
static inline void _ripple_lock_erase_mark_for_testing(_ripple_lock_t *lock) {
    __atomic_store_n(&lock->word, 1, __ATOMIC_RELAXED);
}

/// The thread that holds `lock`, or 0 (see `owner`).
static inline __attribute__((always_inline)) uintptr_t _ripple_lock_owner(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
}

/// Sets the thread that holds `lock` (see `owner`).
static inline __attribute__((always_inline)) void _ripple_lock_set_owner(_ripple_lock_t *lock, uintptr_t owner) {
    __atomic_store_n(&lock->owner, owner, __ATOMIC_RELAXED);
}

/// The sleep primitive of platforms without a futex, available everywhere so that Linux tests
/// cover it: sleeps while `*address == expected` (at most `timeoutNanoseconds` if not 0), until
/// `_ripple_parking_wake` is called for `address` after this call began. May return early.
void _ripple_parking_wait(uint32_t *address, uint32_t expected, uint64_t timeoutNanoseconds);

/// Wakes the threads in `_ripple_parking_wait` on `address` (and maybe others: they wake
/// early). Touches no memory at `address`.
void _ripple_parking_wake(uint32_t *address);

/// For tests of the parking primitive: a word loaded and stored as `_ripple_parking_wait` and
/// its wakers do.
static inline uint32_t _ripple_parking_word_load(uint32_t *address) {
    return __atomic_load_n(address, __ATOMIC_SEQ_CST);
}
static inline void _ripple_parking_word_store(uint32_t *address, uint32_t value) {
    __atomic_store_n(address, value, __ATOMIC_SEQ_CST);
}

/// Runs `body(argument)` on a new thread with a stack of `stackSize` bytes, and waits for it
/// to end. Returns 0, or the error `pthread_create` returned (then `body` did not run).
int _ripple_run_on_new_thread(size_t stackSize, void *(*body)(void *), void *argument);

#endif
