import _RippleRef

/// One acquisition of the graph's lock by the calling thread, as a value: a function that
/// returns with the lock held returns one, and the function that releases that acquisition
/// consumes it. So which function holds the lock is in the types, not in the comments: the
/// write path (`Stored._lockForWrite` → `_commitWrite`, `_unlockAfterWrite` or
/// `_markReadersOfReplacedStagedValue`) and the job loop (`_Graph.unlockRunningQueuedJobs`,
/// `runQueuedJobsAndUnlock`) hand it on; a step that needs the lock held (`_stampVersion`,
/// `_recordWrite`) borrows it.
///
/// Non-copyable and empty: passing it costs nothing. Dropping one without releasing it is a
/// bug in Ripple, which stops the program (`deinit`) instead of leaving the graph locked.
///
/// Functions that take and release the lock in the same body use `_Graph.lock` and
/// `_Graph.unlock()` directly; so do the fast reads (`_Graph+FastRead.swift`), whose start and
/// end the caller's inlined code joins.
@usableFromInline
struct _HeldLock: ~Copyable {
    /// A token for an acquisition just made (only `_Graph.takeLock()` and the write path's
    /// `_lockForWrite` make one).
    @usableFromInline @inline(__always)
    init() {}

    /// Releases this acquisition (`_Graph.unlock()`: after the outermost one, drops the
    /// references let go of under it).
    @usableFromInline @inline(__always)
    consuming func release(_ graph: _Graph) {
        graph.unlock()
        discard self
    }

    /// `release(_:)` for a caller that reaches the graph through a `_Ref`: an acquisition cannot be
    /// consumed inside the closure of `_Ref.with(_:)`, so it is released here.
    @usableFromInline @inline(__always)
    consuming func release(_ graph: _Ref<_Graph>) {
        graph.with { $0.unlock() }
        discard self
    }

    deinit {
        Self.dropped()
    }

    /// Stops the program: an acquisition was dropped without `release(_:)` (a bug in Ripple).
    @inline(never)
    static func dropped() {
        _rippleFailure("internal error: an acquisition of the graph's lock was dropped without being released")
    }
}

extension _Graph {
    /// Takes the lock and returns the acquisition, for a function that hands it on.
    @inline(__always)
    func takeLock() -> _HeldLock {
        lock.lock()
        return _HeldLock()
    }

    /// `takeLock()` with the calling thread's identity found by the caller (see `_Lock.lock(as:)`).
    @inline(__always)
    func takeLock(as me: UInt) -> _HeldLock {
        lock.lock(as: me)
        return _HeldLock()
    }
}
