// The headers' functions are inlined where they are called; here is the thread-local pointer
// they read. The lock's paths that sleep and wake are in `_RippleLock.c`.
#include "_RippleThread.h"

#if defined(__linux__)
__thread void *_ripple_thread_context __attribute__((tls_model("initial-exec"))) = 0;
#endif
