#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which thread the main actor runs on, for the main-actor API (``MainActorComputed``,
/// ``observeOnMainActor(isolation:file:line:_:)``): a main-actor run triggered on the main
/// thread runs at once, and a main-actor derivation is refused anywhere else.
///
/// The main actor's executor is the main thread (its jobs run there, and any code on the main
/// thread is serialized with them), so code running on the main thread may run main-actor code
/// synchronously; this is also what `MainActor.assumeIsolated` checks. Apple platforms ask
/// the system (`pthread_main_np`). Elsewhere the C library does not say which thread is the
/// main one, so Ripple learns it from the first code it knows is isolated to the main actor:
/// a `MainActorComputed` being created, `observeOnMainActor` called from main-actor code, or a
/// main-actor run arriving through the executor. Until then the answer is "no", which only
/// means that a run is sent to the main actor instead of running at once.
extension _Graph {
    /// Whether the calling thread is the main thread (lock held).
    @inline(__always)
    func isOnMainThread() -> Bool {
        #if canImport(Darwin)
        return pthread_main_np() != 0
        #else
        return mainThread != 0 && mainThread == _Lock.currentThread
        #endif
    }

    /// Records the calling thread as the main thread (lock held). Call it only from code that
    /// is isolated to the main actor.
    @inline(__always)
    func learnMainThread() {
        #if !canImport(Darwin)
        if mainThread == 0 { mainThread = _Lock.currentThread }
        #endif
    }
}

/// Records the calling thread as the main thread, from code isolated to the main actor.
@MainActor
func _learnMainThread() {
    #if !canImport(Darwin)
    _graph.withLock { _graph.learnMainThread() }
    #endif
}
