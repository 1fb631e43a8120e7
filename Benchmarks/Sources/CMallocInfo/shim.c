// The module's functions are inline in its header; this file gives SwiftPM something to compile.
#include "CMallocInfo.h"
