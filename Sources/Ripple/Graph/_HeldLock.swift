import _RippleRef

/// One acquisition of the graph's lock by the calling thread, as a value: a function that
/// returns with the lock held returns one, and the function that releases that acquisition
/// consumes it. So which function holds the lock is in the types, not in the comments: the
/// write path (`Stored._lockForWrite` → `_commitWrite`, `_unlockAfterWrite` or
/// `_markReadersOfReplacedStagedValue`), the job loop (`_Graph.unlockRunningQueuedJobs`,
/// `runQueuedJobsAndUnlock`) and the reads' general path (`Stored._generalRead`,
/// `_readStaged`, `_untrackedRead`, `_Graph.finishUntrackedRead`, `_generalRead(of:_:)`, the
/// computed reads' ends) hand it on; a step that needs the lock held (`_stampVersion`,
/// `_recordWrite`, `_trackRead`) borrows it.
///
/// Non-copyable and empty: passing it costs nothing. Dropping one without releasing it is a
/// bug in Ripple, which stops the program (`deinit`) instead of leaving the graph locked.
///
/// The token is also what reaches the graph's guarded state (`_Graph.state(_:)`): a function
/// that needs the lock takes it, borrowed, and one that takes and releases the lock in the same
/// body takes a token (`takeLock()`, `withLock { held in … }`) and releases it. The fast reads'
/// first steps (`_Graph+FastRead.swift`) take the lock and report it in their result
/// (`_ReadStart`): marked as releasing nothing, they return a plain enum, and the value's
/// accessor makes the acquisition's token from it (`init()`), which the read's end consumes.
@frozen @usableFromInline
struct _HeldLock: ~Copyable {
    /// A token for an acquisition just made: by `_Graph.takeLock()`, the write path's
    /// `_lockForWrite`, `_Node._lockAndRefresh()`, or a fast read's first step whose result
    /// says it holds the lock (`_ReadStart`, `_UntrackedReadEnd.general`).
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

    /// Releases this acquisition at the end of a read that a derivation or reaction tracked
    /// (`_Node._endGeneralRead`): inside a derivation, whose thread holds the lock already,
    /// only the nested count goes down, inline; outermost, `_Graph.unlock()`.
    @_transparent @usableFromInline
    consuming func releaseAfterRead(_ graph: _Ref<_Graph>) {
        graph.with { graph in
            if !graph.lock.unlockIfNested() { graph._unlockAfterGeneralRead() }
        }
        discard self
    }

    /// `releaseAfterRead(_:)` for the fast read of a value without references
    /// (`_Node._endTrackedRead(copying:_:)`): the outermost release is `_Graph._endTrackedRead()`,
    /// marked as releasing nothing (see `_Graph+FastRead.swift`).
    @_transparent @usableFromInline
    consuming func releaseAfterFastRead(_ graph: _Ref<_Graph>) {
        graph.with { graph in
            if !graph.lock.unlockIfNested() { graph._endTrackedRead() }
        }
        discard self
    }

    /// Ends this token with the lock still held. Only the fast reads (`_Graph+FastRead.swift`)
    /// do this: their first steps hand the acquisition on through their result (`_ReadStart`,
    /// `_ComputedReadStart`), from which the value's accessor makes the caller's token
    /// (`init()`); and a read inside a derivation, whose thread holds the lock already, makes a
    /// token for its use of that acquisition and ends it so.
    @usableFromInline @inline(__always)
    consuming func endWithoutReleasing() {
        discard self
    }

    // Inlinable: inlined code that hands a token on (`_Ref.with(handing:_:)`) holds it in an
    // optional, whose destruction the optimizer must be able to see.
    @inlinable
    deinit {
        Self.dropped()
    }

    /// Stops the program: an acquisition was dropped without `release(_:)` (a bug in Ripple).
    @usableFromInline @inline(never)
    static func dropped() {
        _rippleFailure("internal error: an acquisition of the graph's lock was dropped without being released")
    }
}

extension _Graph {
    /// Takes the lock and returns the acquisition, for a function that hands it on.
    @usableFromInline @inline(__always)
    func takeLock() -> _HeldLock {
        lock.lock()
        return _HeldLock()
    }

    /// Whether the calling thread holds the lock (a derivation runs with its thread holding it).
    /// Not inlined and synchronous: the thread's identity is read in place (see `_Lock`).
    @inline(never)
    func isLockHeldByCallingThread() -> Bool {
        lock.isHeld(byThread: _Lock.threadOfNonInlinedSynchronousCaller)
    }

    /// `takeLock()` with the calling thread's identity found by the caller (see `_Lock.lock(as:)`).
    @inline(__always)
    func takeLock(as me: UInt) -> _HeldLock {
        lock.lock(as: me)
        return _HeldLock()
    }
}
