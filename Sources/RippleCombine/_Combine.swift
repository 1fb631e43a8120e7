// Combine on Apple platforms; OpenCombine, the same API, elsewhere.
#if canImport(Combine)
@_exported @preconcurrency import Combine

/// Combine's subscription protocol (the name `Subscription` is Ripple's).
typealias _CombineSubscription = Combine.Subscription
#else
@_exported @preconcurrency import OpenCombine

/// OpenCombine's subscription protocol (the name `Subscription` is Ripple's).
typealias _CombineSubscription = OpenCombine.Subscription
#endif
