// Everything is in the header: `_ripple_current_thread()` is inlined where it is called.
#include "_RippleThread.h"
