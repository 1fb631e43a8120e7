// The paths of Ripple's lock that sleep and wake (see `include/_RippleLock.h`).
#include "_RippleLock.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <limits.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_once_t setupOnce = PTHREAD_ONCE_INIT;
static bool processBarrier = false;

/// Registers the process for expedited private barriers, if the kernel offers them.
static void setUp(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    processBarrier = true;
}

bool _ripple_lock_uses_process_barrier(void) {
    pthread_once(&setupOnce, setUp);
    return processBarrier;
}

void _ripple_lock_init(_ripple_lock_t *lock, bool fenced) {
    bool barrier = _ripple_lock_uses_process_barrier();
    lock->word = 0;
    lock->waiters = 0;
    lock->signal = 0;
    lock->signalWaiters = 0;
    lock->fenced = (fenced || !barrier) ? 1 : 0;
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
    __atomic_fetch_add(&lock->waiters, 1, __ATOMIC_SEQ_CST);
    // Every release from now on sees the registration, and every release before it is
    // visible here (a fenced release orders itself; a plain one is ordered by this barrier).
    bool ordered = __atomic_load_n(&lock->fenced, __ATOMIC_RELAXED)
        || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
    // Should the barrier ever fail, a release may miss this waiter: sleep in short slices then,
    // so that a missed wake-up costs a millisecond, never a hang.
    struct timespec slice = { 0, 1000000 };
    while (!_ripple_lock_try(lock)) {
        futexWait(&lock->word, 1, ordered ? NULL : &slice);
    }
    __atomic_fetch_sub(&lock->waiters, 1, __ATOMIC_RELAXED);
}

void _ripple_lock_wake(_ripple_lock_t *lock) {
    syscall(SYS_futex, &lock->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void _ripple_lock_wait_for_broadcast(_ripple_lock_t *lock) {
    // Both changed with the lock held, so a broadcast after the release below bumps `signal`
    // past `seen`, and the sleep does not begin (or ends).
    __atomic_fetch_add(&lock->signalWaiters, 1, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_load_n(&lock->signal, __ATOMIC_RELAXED);
    _ripple_lock_release(lock);
    futexWait(&lock->signal, seen, NULL);
    _ripple_lock_acquire(lock);
    __atomic_fetch_sub(&lock->signalWaiters, 1, __ATOMIC_RELAXED);
}

void _ripple_lock_broadcast(_ripple_lock_t *lock) {
    __atomic_fetch_add(&lock->signal, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&lock->signalWaiters, __ATOMIC_RELAXED) != 0) {
        syscall(SYS_futex, &lock->signal, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    }
}
#endif
