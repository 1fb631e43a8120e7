// The words of Ripple's lock on Linux, and its operations (see `_Lock` in `_Lock.swift`).
//
// A futex lock whose release is a plain store. Releasing with an atomic exchange (as the C
// library's mutex does) costs a locked instruction; a store does not. The price is paid by the
// rare thread that must sleep: before it sleeps, it registers as a waiter and forces a memory
// barrier on every running thread of the process (`membarrier`), so that any release either
// is visible to it or sees its registration and wakes it. Where the kernel does not offer that
// barrier, every release makes a full fence instead (`fenced`), which is always correct.
//
// The fast paths are inline here (so that Swift inlines them, and sanitizers see their atomic
// operations); the paths that sleep and wake are in `_RippleLock.c`.
#ifndef RIPPLE_LOCK_H
#define RIPPLE_LOCK_H

#include <stdint.h>
#include <stdbool.h>

#if defined(__linux__)

/// The words of one lock. Allocated by Swift, which must not move them.
typedef struct {
    /// 0: free; 1: held.
    uint32_t word;
    /// Threads that registered to sleep until `word` is released.
    uint32_t waiters;
    /// Bumped by `_ripple_lock_broadcast`; threads in `_ripple_lock_wait_for_broadcast` sleep on it.
    uint32_t signal;
    /// Threads in `_ripple_lock_wait_for_broadcast` (changed with the lock held).
    uint32_t signalWaiters;
    /// 1: every release makes a full fence (no process-wide barrier, or a test asked for it).
    uint32_t fenced;
} _ripple_lock_t;

/// Initializes `lock` as free. `fenced` forces the fenced release (tests cover both kinds).
void _ripple_lock_init(_ripple_lock_t *lock, bool fenced);

/// Acquires `lock` after the fast attempt failed: spins briefly, then sleeps.
void _ripple_lock_acquire_slow(_ripple_lock_t *lock);

/// Wakes a thread sleeping in `_ripple_lock_acquire_slow`.
void _ripple_lock_wake(_ripple_lock_t *lock);

/// Releases `lock` (held once by the caller), sleeps until `_ripple_lock_broadcast` is called
/// after this call began, and acquires `lock` again. May return early (a spurious wake-up).
void _ripple_lock_wait_for_broadcast(_ripple_lock_t *lock);

/// Wakes every thread in `_ripple_lock_wait_for_broadcast` (call with the lock held).
void _ripple_lock_broadcast(_ripple_lock_t *lock);

/// Whether the process-wide barrier is in use: false where the kernel does not offer it, and
/// every lock then uses the fenced release.
bool _ripple_lock_uses_process_barrier(void);

/// Acquires `lock` if it is free. Returns whether it did.
static inline __attribute__((always_inline)) bool _ripple_lock_try(_ripple_lock_t *lock) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(&lock->word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Acquires `lock`, waiting if another thread holds it.
static inline __attribute__((always_inline)) void _ripple_lock_acquire(_ripple_lock_t *lock) {
    if (__builtin_expect(!_ripple_lock_try(lock), 0)) _ripple_lock_acquire_slow(lock);
}

/// Releases `lock`, and wakes a waiter if one registered.
static inline __attribute__((always_inline)) void _ripple_lock_release(_ripple_lock_t *lock) {
    __atomic_store_n(&lock->word, 0, __ATOMIC_RELEASE);
    if (__atomic_load_n(&lock->fenced, __ATOMIC_RELAXED)) {
        // The store must be visible before the load below reads `waiters` (Dekker's pattern).
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    } else {
        // Keeps the compiler from moving the load above the store; the processor may, and the
        // waiter's process-wide barrier accounts for that.
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    if (__builtin_expect(__atomic_load_n(&lock->waiters, __ATOMIC_RELAXED) != 0, 0)) _ripple_lock_wake(lock);
}

/// For tests: the threads registered to sleep until `lock` is released, and those waiting for
/// a broadcast.
static inline uint32_t _ripple_lock_waiters(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->waiters, __ATOMIC_RELAXED);
}
static inline uint32_t _ripple_lock_broadcast_waiters(_ripple_lock_t *lock) {
    return __atomic_load_n(&lock->signalWaiters, __ATOMIC_RELAXED);
}

#endif
#endif
