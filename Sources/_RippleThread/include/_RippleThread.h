// The calling thread's identity for Ripple's lock, as one instruction where the platform allows.
//
// On Linux (glibc and musl, x86-64 and arm64), the thread pointer is unique among the threads
// alive, like `pthread_self()` (on glibc x86-64 it is the same value), and reading it is one
// load. Elsewhere, `pthread_self()`.
//
// Like `pthread_self()`, the value must never be reused across a suspension point of an `async`
// function, where the code may resume on another thread: Ripple calls this only from
// synchronous functions that are never inlined (see `_callingThread()` in `_Lock.swift`).
#ifndef RIPPLE_THREAD_H
#define RIPPLE_THREAD_H

#include <stdint.h>
#include "_RippleLock.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
static inline __attribute__((always_inline)) uintptr_t _ripple_current_thread(void) {
    return (uintptr_t)__builtin_thread_pointer();
}
#else
#include <pthread.h>
static inline __attribute__((always_inline)) uintptr_t _ripple_current_thread(void) {
    return (uintptr_t)pthread_self();
}
#endif

/// A word set at most once, from 0, and read without a lock: a node's late name (see
/// `_NameableOrigin`). Loads acquire, so that a reader sees what the word points to as the
/// thread that published it left it; C atomics, which ThreadSanitizer sees and which every
/// platform has (`Atomic` needs macOS 15 / iOS 18).
static inline __attribute__((always_inline)) uintptr_t _ripple_once_word_load(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Sets `word` to `value` if it is still 0. Returns whether it did (false: another thread
/// published first, and the caller keeps what it meant to publish).
static inline __attribute__((always_inline)) bool _ripple_once_word_publish(uintptr_t *word, uintptr_t value) {
    uintptr_t expected = 0;
    return __atomic_compare_exchange_n(word, &expected, value, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// A counter read without a lock (RippleStore's removals of subscribers, see `_StoreSinks`):
/// a run that copied a list checks it before each call, a load that stays in the cache.
static inline __attribute__((always_inline)) uintptr_t _ripple_counter_load(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Adds one to a counter read by ``_ripple_counter_load``.
static inline __attribute__((always_inline)) void _ripple_counter_increment(uintptr_t *word) {
    __atomic_fetch_add(word, 1, __ATOMIC_ACQ_REL);
}

/// A word written under a lock and read without it where a stale value is harmless (the
/// graph's count of installed tracers): relaxed C atomics, which ThreadSanitizer sees.
static inline __attribute__((always_inline)) uintptr_t _ripple_relaxed_load(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Adds `delta` to a word read by ``_ripple_relaxed_load``, atomically (the graph's count of
/// stored values with before-change handlers, also changed by a value's `deinit`).
static inline __attribute__((always_inline)) void _ripple_relaxed_add(uintptr_t *word, intptr_t delta) {
    __atomic_fetch_add(word, (uintptr_t)delta, __ATOMIC_RELAXED);
}

/// Sets a word read by ``_ripple_relaxed_load``.
static inline __attribute__((always_inline)) void _ripple_relaxed_store(uintptr_t *word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

// The model of `_ripple_thread_context`: on Linux in the static TLS block, read with one load;
// elsewhere the platform's default (on Apple platforms a thread-local variable descriptor).
#if defined(__linux__)
#define RIPPLE_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define RIPPLE_TLS_MODEL
#endif

/// The calling thread's Ripple context (`_ThreadContext`), or null before it has one: a
/// thread-local pointer, read where `pthread_getspecific` costs a call. The context is also kept
/// under a `pthread` key, whose destructor releases it at the thread's exit and clears this
/// pointer first.
extern __thread void *_ripple_thread_context RIPPLE_TLS_MODEL;

static inline __attribute__((always_inline)) void *_ripple_context(void) {
    return _ripple_thread_context;
}

static inline __attribute__((always_inline)) void _ripple_set_context(void *context) {
    _ripple_thread_context = context;
}

#endif
