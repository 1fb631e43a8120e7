// The paths of Ripple's lock that sleep and wake (see `include/_RippleLock.h`). The same on every
// platform but for `futexWait` and `futexWake`, the one primitive that differs: a futex on Linux,
// the parking table below elsewhere.
#include "_RippleLock.h"

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

void _ripple_lock_init(_ripple_lock_t *lock) {
    lock->owner = 0;
    lock->depth = 0;
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

// MARK: Parking: a futex made of mutexes and condition variables

// A word's sleepers wait on the condition of the bucket its address falls in. The waiter checks
// the word under the bucket's mutex and sleeps in the same step (`pthread_cond_wait` releases
// the mutex atomically); a waker changes the word first, then takes the mutex and broadcasts. So
// a wake made after the change reaches every thread that saw the old value. Threads of other
// words in the bucket wake too, and look again: every caller loops.

enum { bucketCount = 64 };

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t condition;
} bucket_t;

static bucket_t buckets[bucketCount];
static pthread_once_t bucketsMade = PTHREAD_ONCE_INIT;

static void makeBuckets(void) {
    for (int index = 0; index < bucketCount; index++) {
        pthread_mutex_init(&buckets[index].mutex, NULL);
        pthread_cond_init(&buckets[index].condition, NULL);
    }
}

static bucket_t *bucketOf(uint32_t *address) {
    pthread_once(&bucketsMade, makeBuckets);
    uintptr_t bits = (uintptr_t)address;
    return &buckets[((bits >> 2) ^ (bits >> 9)) % bucketCount];
}

void _ripple_parking_wait(uint32_t *address, uint32_t expected, uint64_t timeoutNanoseconds) {
    bucket_t *bucket = bucketOf(address);
    pthread_mutex_lock(&bucket->mutex);
    if (__atomic_load_n(address, __ATOMIC_SEQ_CST) == expected) {
        if (timeoutNanoseconds == 0) {
            pthread_cond_wait(&bucket->condition, &bucket->mutex);
        } else {
            struct timespec deadline;
            clock_gettime(CLOCK_REALTIME, &deadline);
            uint64_t nanoseconds = (uint64_t)deadline.tv_nsec + timeoutNanoseconds;
            deadline.tv_sec += (time_t)(nanoseconds / 1000000000u);
            deadline.tv_nsec = (long)(nanoseconds % 1000000000u);
            pthread_cond_timedwait(&bucket->condition, &bucket->mutex, &deadline);
        }
    }
    pthread_mutex_unlock(&bucket->mutex);
}

void _ripple_parking_wake(uint32_t *address) {
    bucket_t *bucket = bucketOf(address);
    pthread_mutex_lock(&bucket->mutex);
    pthread_cond_broadcast(&bucket->condition);
    pthread_mutex_unlock(&bucket->mutex);
}

// MARK: The platform's primitive

/// Sleeps while `*address == expected`, at most `timeoutNanoseconds` if not 0. May return early.
static void futexWait(uint32_t *address, uint32_t expected, uint64_t timeoutNanoseconds) {
#if defined(__linux__)
    struct timespec timeout = { (time_t)(timeoutNanoseconds / 1000000000u), (long)(timeoutNanoseconds % 1000000000u) };
    syscall(SYS_futex, address, FUTEX_WAIT_PRIVATE, expected, timeoutNanoseconds == 0 ? NULL : &timeout, NULL, 0);
#else
    _ripple_parking_wait(address, expected, timeoutNanoseconds);
#endif
}

/// Wakes one thread asleep on `address` (`all`: every one). Touches no memory at `address`.
static void futexWake(uint32_t *address, bool all) {
#if defined(__linux__)
    syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, all ? INT_MAX : 1, NULL, NULL, 0);
#else
    (void)all;
    _ripple_parking_wake(address);
#endif
}

// MARK: The lock

void _ripple_lock_acquire_slow(_ripple_lock_t *lock) {
    for (int spin = 0; spin < 64; spin++) {
        if (__atomic_load_n(&lock->word, __ATOMIC_RELAXED) == 0 && _ripple_lock_try(lock)) return;
        spinPause();
    }
    // A mark overwritten by a plain release is found again after this (see the header).
    const uint64_t slice = 1000000;
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
        futexWait(&lock->word, 2, slice);
        __atomic_fetch_sub(&lock->sleeping, 1, __ATOMIC_SEQ_CST);
    }
}

static __thread uint32_t wakeCallsOfThread = 0;

uint32_t _ripple_lock_wake_calls_of_calling_thread(void) {
    return wakeCallsOfThread;
}

void _ripple_lock_wake(_ripple_lock_t *lock) {
    wakeCallsOfThread += 1;
    futexWake(&lock->word, false);
}

void _ripple_lock_wait_for_broadcast(_ripple_lock_t *lock) {
    // Set and read with the lock held, so a broadcast after the release below bumps `signal`
    // past `seen` and finds `signalPending` set: the sleep does not begin, or ends.
    __atomic_fetch_add(&lock->signalWaiters, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&lock->signalPending, 1, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_load_n(&lock->signal, __ATOMIC_RELAXED);
    _ripple_lock_release(lock);
    futexWait(&lock->signal, seen, 0);
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
        futexWake(&lock->signal, true);
    }
}

// MARK: A thread with a stack of its own

int _ripple_run_on_new_thread(size_t stackSize, void *(*body)(void *), void *argument) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, stackSize);
    pthread_t thread;
    int status = pthread_create(&thread, &attributes, body, argument);
    pthread_attr_destroy(&attributes);
    if (status == 0) pthread_join(thread, NULL);
    return status;
}
