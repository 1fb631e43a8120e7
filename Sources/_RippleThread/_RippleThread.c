// The headers' functions are inlined where they are called; here is the thread-local pointer
// they read. The lock's paths that sleep and wake are in `_RippleLock.c`.
#include "_RippleThread.h"

__thread void *_ripple_thread_context RIPPLE_TLS_MODEL = 0;
