// The paths of Ripple's lock that sleep and wake (see `include/_RippleLock.h`).
#include "_RippleLock.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <limits.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void _ripple_lock_init(_ripple_lock_t *lock) {
    lock->word = 0;
    lock->sleeping = 0;
    lock->signal = 0;
    lock->signalWaiters = 0;
    lock->signalPending = 0;
    lock->signalWakes = 0;
}

static void spinPause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/// Sleeps while `*address == expected`, at most `timeout` if not null.
static void futexWait(uint32_t *address, uint32_t expected, const struct timespec *timeout) {
    syscall(SYS_futex, address, FUTEX_WAIT_PRIVATE, expected, timeout, NULL, 0);
}

void _ripple_lock_acquire_slow(_ripple_lock_t *lock) {
    for (int spin = 0; spin < 64; spin++) {
        if (__atomic_load_n(&lock->word, __ATOMIC_RELAXED) == 0 && _ripple_lock_try(lock)) return;
        spinPause();
    }
    // A mark overwritten by a plain release is found again after this (see the header).
    const struct timespec slice = { 0, 1000000 };
    while (true) {
        // Taking it: marked if another thread sleeps, so that this release wakes it. A thread
        // that begins to sleep after this load marks the word itself.
        uint32_t expected = 0;
        uint32_t taken = __atomic_load_n(&lock->sleeping, __ATOMIC_SEQ_CST) != 0 ? 2 : 1;
        if (__atomic_compare_exchange_n(&lock->word, &expected, taken, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
        // Counted before marking: a thread that takes the lock here after the mark marks it
        // too (one on the fast path does not; see the header).
        __atomic_fetch_add(&lock->sleeping, 1, __ATOMIC_SEQ_CST);
        if (__atomic_exchange_n(&lock->word, 2, __ATOMIC_ACQUIRE) == 0) {
            // Free after all: taken, marked (one wake call too many at most).
            __atomic_fetch_sub(&lock->sleeping, 1, __ATOMIC_SEQ_CST);
            return;
        }
        futexWait(&lock->word, 2, &slice);
        __atomic_fetch_sub(&lock->sleeping, 1, __ATOMIC_SEQ_CST);
    }
}

static __thread uint32_t wakeCallsOfThread = 0;

uint32_t _ripple_lock_wake_calls_of_calling_thread(void) {
    return wakeCallsOfThread;
}

void _ripple_lock_wake(_ripple_lock_t *lock) {
    wakeCallsOfThread += 1;
    syscall(SYS_futex, &lock->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void _ripple_lock_wait_for_broadcast(_ripple_lock_t *lock) {
    // Set and read with the lock held, so a broadcast after the release below bumps `signal`
    // past `seen` and finds `signalPending` set: the sleep does not begin, or ends.
    __atomic_fetch_add(&lock->signalWaiters, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&lock->signalPending, 1, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_load_n(&lock->signal, __ATOMIC_RELAXED);
    _ripple_lock_release(lock);
    futexWait(&lock->signal, seen, NULL);
    // Awake: broadcasts from now on need not wake this thread, which checks its condition
    // again once it holds the lock.
    __atomic_fetch_sub(&lock->signalWaiters, 1, __ATOMIC_RELAXED);
    _ripple_lock_acquire(lock);
}

void _ripple_lock_broadcast(_ripple_lock_t *lock) {
    __atomic_fetch_add(&lock->signal, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&lock->signalPending, __ATOMIC_RELAXED) != 0) {
        __atomic_store_n(&lock->signalPending, 0, __ATOMIC_RELAXED);
        __atomic_fetch_add(&lock->signalWakes, 1, __ATOMIC_RELAXED);
        syscall(SYS_futex, &lock->signal, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    }
}
#endif
