#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H

#include <stddef.h>

#if defined(__linux__)
#include <malloc.h>
#endif

#if defined(__GLIBC__)
/// Bytes in use by malloc (glibc's mallinfo2().uordblks); -1 where it is not available.
static inline long long bench_malloc_in_use(void) {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
    struct mallinfo2 info = mallinfo2();
    return (long long)info.uordblks;
#else
    struct mallinfo info = mallinfo();
    return (long long)(unsigned int)info.uordblks;
#endif
}
#else
static inline long long bench_malloc_in_use(void) { return -1; }
#endif

/// kairo's busy(): counts to 100 in a loop the optimizer cannot remove (a volatile counter).
static inline int bench_busy(void) {
    volatile int a = 0;
    for (int i = 0; i < 100; i++) a = a + 1;
    return a;
}

#endif
