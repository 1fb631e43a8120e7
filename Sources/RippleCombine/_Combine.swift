// Combine on Apple platforms; OpenCombine, the same API, elsewhere.
#if canImport(Combine)
@_exported @preconcurrency import Combine
#else
@_exported @preconcurrency import OpenCombine
#endif
