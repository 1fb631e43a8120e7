// Everything is in the headers: `_ripple_current_thread()` is inlined where it is called. The
// lock's paths that sleep and wake are in `_RippleLock.c`.
#include "_RippleThread.h"
