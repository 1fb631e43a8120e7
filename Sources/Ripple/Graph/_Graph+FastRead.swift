import _RippleRef

// The read protocol, the one place where a function returns with the graph's lock held and
// says so in a plain result rather than in a `_HeldLock` (see `_HeldLock.swift`): a read's first
// step (`_beginStoredRead`, `_beginComputedRead`) takes the lock and tells in its `_ReadStart`
// whether it holds it, and the end of a top-level read of a computed value
// (`_endUntrackedComputedRead`) tells in its `_UntrackedReadEnd` whether it released it. Both
// are marked as releasing nothing (below), which a function handing out a non-copyable token
// could not promise the optimizer as cheaply. The inlined accessors of the values
// (`Stored.value`, `Computed.value`) turn a result that holds the lock into the acquisition's
// token (`_HeldLock()`), and every end of a read consumes one (`_endTrackedRead`,
// `_endGeneralRead`, and the general path's `_generalRead`, `_readStaged`, `_untrackedRead`),
// so that a read costs one call into the graph and, inside a derivation, no acquisition at all.
// Both halves are in this file; the accessors only join them.
//
// The first step of every read of a stored or computed value: the common case (a value that is
// up to date, read again by the derivation or reaction that read it last time) is done here,
// in a function the optimizer knows releases nothing.
//
// Why that matters: code that reads handles out of an array, `for leaf in leaves { _ =
// leaf.value }`, must keep each handle alive across the read. If the read calls a function that
// might release objects (any Swift function the optimizer cannot see into, or any C function),
// Swift retains and releases every handle around the call: two atomic operations per read, a
// third or more of the time of the dynamic benchmarks. A function marked
// `@_effects(releasenone)` tells the optimizer that it releases nothing, so the handle needs no
// retain across it, and the retain and release move into the general path only.
//
// The mark is a promise the compiler does not check: a release made anyway could free an
// object the caller still uses. So the functions marked here do only what provably releases
// nothing: take and release the lock (pthread calls), load fields, compare, update an edge
// that already exists in place, and (at the end of a top-level read) ask Observation whether a
// scope records the read, which releases nothing a caller holds (see
// `_observationRecordsThisRead`). Anything else (a value that must be brought up to date, a
// batch in progress on any thread, a read-modify-write region, an edge to add or replace, a
// thread with no context yet, references queued for release at the outermost unlock) gives up
// before changing anything, and the caller goes on along the general path, which does all of it
// (with the lock still held: giving up costs no second acquisition).
// `Graph/FastReadTests` covers each of those ways out.
//
// Values that hold references. The mark also tells the optimizer that nothing can free a value
// the caller copied out of a node before the call: so it may retain that copy after the call
// (or not at all, if the caller releases it before anything that might release). But the call
// releases the lock, and from then on another thread may replace the value and free it: a
// reader of an array then retained, or read, freed memory (found by CI's AddressSanitizer run,
// `Graph/ValueLifetimeTests`). So a read copies a value that holds references (`!_isPOD`) and
// ends through the general path's unlock, which is not marked and is a real call: the retain
// stays before it. Only values without references (numbers, flags, plain structs) end here,
// where there is no retain to move. `.ci/check-fast-read` checks that no caller of the two
// marked ends retains anything after calling them.

/// How the first step of a read of a stored value went (see `_Node._beginStoredRead`).
///
/// Measured on the benchmark package, case by case: a stored value's read gains from
/// `trackedInDerivation` (benchmark "repeated", 30 reads of one value per evaluation, −21 %); a
/// computed value's read lost as much on "diamond" and "unstable" from the jump through a
/// table a switch of four cases compiles to, so it has three (`_ComputedReadStart`).
@usableFromInline
enum _ReadStart: UInt8 {
    /// The read was recorded by the derivation running on this thread, which held the lock
    /// already; the lock was not taken again (the lock records its owner, so a thread knows
    /// whether it holds it): copy the value, and release nothing.
    case trackedInDerivation
    /// The read was recorded by the running derivation or reaction; the lock is held: copy the
    /// value, then call `_endTrackedRead(copying:_:)` with the acquisition (`_HeldLock()`).
    case tracked
    /// Nothing tracks the read (a top-level read, or inside `untracked { }`); the lock is
    /// held: copy the value, then finish as an untracked read, handing it the acquisition.
    case untracked
    /// Nothing was done; the lock is held: go on along the general path, handing it the
    /// acquisition.
    case general
}

/// How the first step of a read of a computed value went (see `_Node._beginComputedRead`):
/// `_ReadStart` without `trackedInDerivation`. Three cases, so that the read's switch compiles
/// to two compares rather than a jump through a table (see `Computed.value`).
@usableFromInline
enum _ComputedReadStart: UInt8 {
    /// As `_ReadStart.tracked`.
    case tracked
    /// As `_ReadStart.untracked`.
    case untracked
    /// As `_ReadStart.general`.
    case general

    @inline(__always)
    init(_ start: _ReadStart) {
        switch start {
        case .tracked, .trackedInDerivation: self = .tracked
        case .untracked: self = .untracked
        case .general: self = .general
        }
    }
}

/// How the end of a computed value's top-level read went (see
/// `_Node._endUntrackedComputedRead`).
@usableFromInline
enum _UntrackedReadEnd: UInt8 {
    /// The lock is released, and no Observation scope records the read: nothing more to do.
    case done
    /// The lock is released, and an Observation scope recorded the read: call
    /// `_armRecordedComputedRead()`.
    case arm
    /// Nothing was done; the lock is held: finish with `_finishUntrackedComputedRead(_:)`,
    /// handing it the acquisition (`_HeldLock()`).
    case general
}

extension _Node {
    /// The end of a read of this computed value that no derivation or reaction tracked (the
    /// fast path's `.untracked`), the lock held: releases the lock and asks Observation whether
    /// a scope records the read (see `_Graph._endUntrackedComputedRead`).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    final func _endUntrackedComputedRead() -> _UntrackedReadEnd {
        graphRef.with { $0._endUntrackedComputedRead(self) }
    }

    /// The first step of a read of this computed value: takes the lock and, if the value is up
    /// to date and no batch is staging anywhere, records the read in place (see
    /// `_Graph._beginComputedRead`).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    final func _beginComputedRead() -> _ComputedReadStart {
        graphRef.with { $0._beginComputedRead(self) }
    }

    /// The first step of a read of this stored value: takes the lock and, unless some batch
    /// staged a write of it or a read-modify-write region is open, records the read in place
    /// (see `_Graph._beginStoredRead`).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    final func _beginStoredRead() -> _ReadStart {
        graphRef.with { $0._beginStoredRead(self) }
    }

    /// Releases `held`, the lock taken for a read that `_beginComputedRead` or
    /// `_beginStoredRead` tracked, once the caller has copied the value, of type `Value`.
    /// Releases nothing else. Inside a derivation, which holds the lock already, this makes no
    /// call.
    ///
    /// A value that holds references ends through `_endGeneralRead(_:)` instead, which is not
    /// marked as releasing nothing: see "Values that hold references" at the top of this file.
    /// The choice is made when `Value` is known, so it costs nothing at run time.
    @inlinable @inline(__always)
    final func _endTrackedRead<Value>(copying _: Value.Type, _ held: consuming _HeldLock) {
        guard _isPOD(Value.self) else {
            _endTrackedReadOfReferences(held)
            return
        }
        held.releaseAfterFastRead(graphRef)
    }
}

extension _Node {
    /// `_endTrackedRead(copying:_:)` for a value that holds references: `_endGeneralRead(_:)`,
    /// in a call of its own. Not inlined, so that the reads of values without references, which
    /// never take this branch, stay as small as before for the optimizer's inlining of them
    /// (inlined here, the branch made `Stored<Int>.value` too large to inline into a
    /// derivation: 38 instructions more per write on benchmark "diamond").
    @usableFromInline @inline(never)
    final func _endTrackedReadOfReferences(_ held: consuming _HeldLock) {
        _endGeneralRead(held)
    }
}

extension _Graph {
    /// `_Node._beginComputedRead`'s work. Releases nothing (see the top of this file).
    ///
    /// The code here and in what it inlines uses no closures: the optimizer does not inline a
    /// closure into a function with an effects attribute, and each would cost a call.
    @usableFromInline @_effects(releasenone) @inline(never)
    final func _beginComputedRead(_ node: _Node) -> _ComputedReadStart {
        // Never inlined and synchronous: the thread's identity may come straight from
        // the thread pointer, read in place (see `_Lock`).
        let held = takeLock(as: _Lock.threadOfNonInlinedSynchronousCaller)
        let derived = _downcast(node, to: _DerivedNode.self)
        guard !held[isEvaluating: derived], isFresh(derived, held), stagingThreads == 0 else {
            held.endWithoutReleasing()
            return _ComputedReadStart(counted(.general))
        }
        let start = _ComputedReadStart(counted(trackInPlace(node, held)))
        held.endWithoutReleasing()
        return start
    }

    /// `_Node._beginStoredRead`'s work. Releases nothing (see the top of this file).
    ///
    /// The reads inside a derivation running on this thread, which holds the lock, are done
    /// here, in a function small enough to need no registers saved: the most common read of
    /// all, a stored value read again by the same evaluation (`for _ in 0..<30 { total +=
    /// head.value }`), first, then a first read that finds its edge where the last evaluation
    /// left it (updated in place). Every other read goes on in `_beginStoredReadFurther`.
    @usableFromInline @_effects(releasenone) @inline(never)
    final func _beginStoredRead(_ node: _Node) -> _ReadStart {
        // Read already by this evaluation, whose thread holds the lock: nothing to check
        // again (no batch can stage a write of it, nor a read-modify-write begin, meanwhile).
        if lock.isHeld(byThread: _Lock.threadOfNonInlinedSynchronousCaller) {
            // The derivation's acquisition: a token for this read's use of it, ended without a
            // release.
            let held = _HeldLock()
            let state = state(held)
            if let target = state.evaluatingRef {
                if held[trackedBy: node] == state.evaluation.id {
                    held.endWithoutReleasing()
                    return counted(.trackedInDerivation)
                }
                // The first read of it in this evaluation, at the same place as last time: the
                // edge is updated in place here, without the further call.
                if node._stagedCount == 0, readModifyWriteRegions == 0,
                    Self.recordInPlace(node, into: target, &state.evaluation, held)
                {
                    held.endWithoutReleasing()
                    return counted(.trackedInDerivation)
                }
            }
            held.endWithoutReleasing()
        }
        return _beginStoredReadFurther(node)
    }

    /// `_beginStoredRead` for every read it did not finish: one outside a derivation, or one
    /// inside that adds or replaces an edge, or finds a batch or a read-modify-write in the way.
    /// Releases nothing (see the top of this file).
    @_effects(releasenone) @inline(never)
    final func _beginStoredReadFurther(_ node: _Node) -> _ReadStart {
        let me = _Lock.threadOfNonInlinedSynchronousCaller
        let held = takeLock(as: me)
        guard node._stagedCount == 0, readModifyWriteRegions == 0 else {
            held.endWithoutReleasing()
            return counted(.general)
        }
        let start = counted(trackInPlace(node, held))
        held.endWithoutReleasing()
        return start
    }

    /// Debug builds: counts `start` on this thread's context, if it has one (see
    /// `_ThreadContext.fastReads`). Returns `start`.
    @inline(__always)
    private func counted(_ start: _ReadStart) -> _ReadStart {
        #if RIPPLE_INVARIANTS
        _ThreadContext.existingRef?.with { context in
            // A plain load and store, not `+=` (an `inout` access retains the context).
            if start == .general {
                let count = context.generalReads
                context.generalReads = count &+ 1
            } else {
                let count = context.fastReads
                context.fastReads = count &+ 1
                if start == .trackedInDerivation {
                    let inDerivation = context.readsInDerivation
                    context.readsInDerivation = inDerivation &+ 1
                }
            }
        }
        #endif
        return start
    }

    /// Records a read of `node` for the running derivation or reaction, if that needs no new
    /// edge: `node` was already recorded by this evaluation or run, or it is what the edge at
    /// the same position read last time. Does what `trackRead` does in those cases,
    /// and nothing in the others. Returns `.tracked`, `.untracked` when nothing tracks the
    /// read, or `.general` with nothing changed; the lock stays held in all three.
    @inline(__always)
    func trackInPlace(_ node: _Node, _ held: borrowing _HeldLock) -> _ReadStart {
        let locked = state(held)
        if let target = locked.evaluatingRef {
            return Self.recordInPlace(node, into: target, &locked.evaluation, held) ? .tracked : .general
        }
        // A thread with no context yet takes the general path, which creates it.
        guard let contextRef = _ThreadContext.existingRef else { return .general }
        return contextRef.with { context in
            // A batch's sole write must be staged first, so that the read sees it (see
            // `_SoleWrite`); the general path does that.
            if context.soleWrite.isPending { return .general }
            guard context.untrackedDepth == 0, let reaction = context.reactionRef else { return .untracked }
            // Through a copy: an `inout` access to the context's field retains the context.
            var tracking = context.runTracking
            guard Self.recordInPlace(node, into: reaction, &tracking, held) else { return .general }
            context.runTracking = tracking
            return .tracked
        }
    }

    /// `_Node._endUntrackedComputedRead`'s work. Releases nothing (see the top of this file):
    /// a node already armed for Observation, reads hidden from Observation on some thread (`readsHidden`), or
    /// references queued for release at this unlock leave it to the general path
    /// (`_finishUntrackedComputedRead`), with the lock still held; so does arming the node,
    /// which evaluates it (`_armRecordedComputedRead`, after the lock is released). Asking
    /// Observation whether a scope records the read releases nothing the caller holds (see
    /// `_observationRecordsThisRead`); `.ci/check-fast-read` checks what this function calls.
    ///
    /// A top-level read of a value read out of an array (`for row in rows { row.value }`) then
    /// needs no retain and release of the handle around it.
    @usableFromInline @_effects(releasenone) @inline(never)
    final func _endUntrackedComputedRead(_ node: _Node) -> _UntrackedReadEnd {
        // The read's acquisition, which the caller holds as a case of `_ComputedReadStart`: a
        // token for this step's use of it, ended without a release (the step releases the lock
        // itself, or leaves it held for the caller).
        let held = _HeldLock()
        guard !held[hasWatcher: _downcast(node, to: _DerivedNode.self)], readsHidden == 0,
            state(held).releasedUnderLock.isEmpty
        else {
            held.endWithoutReleasing()
            #if RIPPLE_INVARIANTS
            _ThreadContext.existingRef?.with { context in
                // A plain load and store (see `counted`).
                let count = context.generalUntrackedReadEnds
                context.generalUntrackedReadEnds = count &+ 1
            }
            #endif
            return .general
        }
        assertSoleWriteStaged(held)
        held.endWithoutReleasing()
        #if RIPPLE_INVARIANTS
        checkNotEvaluatingAtOutermostUnlock()
        #endif
        lock.unlock()
        return _observationRecordsThisRead() ? .arm : .done
    }

    /// `_Node._endTrackedRead`'s work: `unlock()` for the fast read path, releasing the lock
    /// and nothing else. A read that took the lock outermost queues nothing for release, so
    /// what it finds queued at its outermost unlock was queued by another thread that released
    /// the lock without draining the queue: one that waits in `waitForBroadcast` (`_Lock.wait()`
    /// is not an outermost release). That is left for the next outermost `unlock()`: another
    /// thread's, or the waiting thread's own at the latest, where it would have been released
    /// had it not waited. With no thread waiting, every outermost `unlock()` drains the queue,
    /// so an entry found then is a bug, and debug builds stop.
    @usableFromInline @_effects(releasenone)
    final func _endTrackedRead() {
        #if RIPPLE_INVARIANTS
        checkNotEvaluatingAtOutermostUnlock()
        // The read's acquisition, about to be released: a token for the check's use of it.
        let held = _HeldLock()
        let locked = state(held)
        held.endWithoutReleasing()
        if lock.isHeldOnce, !locked.releasedUnderLock.isEmpty, locked.threadsWaitingForBroadcast == 0 {
            _rippleFailure(
                "internal invariant: references queued for release at the outermost unlock of a fast read, with no thread waiting in waitForBroadcast"
            )
        }
        #endif
        lock.unlock()
    }
}

// The read entry points are methods of the node, and reach the graph through the node's
// unretained reference (`_Ref`): no global access (a lazy-initialisation check each time), no class
// metadata, and no reference counting.
extension _Node {
    /// Takes the lock for a read of this computed value and brings it up to date; returns the
    /// acquisition. Inlinable, like the other read entry points: a read compiled in the client
    /// takes the lock inline and makes one call into the graph.
    @inlinable
    final func _lockAndRefresh() -> _HeldLock {
        graphRef.with { graph in
            let held = graph.takeLock()
            graph._refreshLocked(self, held)
            held.endWithoutReleasing()
        }
        return _HeldLock()
    }

    /// Records the read for the running derivation or reaction, under `held`, which stays held
    /// whatever the result. Returns false when nothing tracked the read: then the caller ends
    /// it as an untracked read, else with `_endGeneralRead(_:)`.
    @inlinable
    final func _trackRead(_ held: borrowing _HeldLock) -> Bool {
        graphRef.with { $0._trackRead(self, held) }
    }

    /// A computed value's general read in one call, under `held`: brings the value up to date
    /// and records the read for the running derivation or reaction. Returns false, having
    /// recorded nothing, when some thread is staging a batch or nothing tracks the read. The
    /// lock stays held either way: after a true, copy the value and call `_endGeneralRead(_:)`.
    @inlinable
    final func _refreshAndTrack(_ held: borrowing _HeldLock) -> Bool {
        graphRef.with { $0._refreshAndTrack(self, held) }
    }

    /// Releases `held` after a read `_trackRead` or `_refreshAndTrack` recorded. Inside a
    /// derivation, which holds the lock already, this makes no call; the outermost release
    /// also releases what the refresh let go of (see `_Graph.unlock()`).
    @inlinable
    final func _endGeneralRead(_ held: consuming _HeldLock) {
        held.releaseAfterRead(graphRef)
    }
}

extension _Graph {
    /// Brings a computed value up to date for a read.
    @usableFromInline
    final func _refreshLocked(_ node: _Node, _ held: borrowing _HeldLock) {
        refreshForRead(node, held)
    }

    /// `_Node._refreshAndTrack`'s work: `_refreshLocked`, then, unless a batch is staging
    /// anywhere, `trackRead` (the lock still held on return).
    ///
    /// The caller need not hold a reference to `node` (see `_generalRead(of:_:)`): before
    /// anything runs that could let go of it, it is held by an edge of the evaluation or
    /// retained (`refreshAndTrackUnheld`).
    @usableFromInline
    final func _refreshAndTrack(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        guard isHeldByEvaluation(node, held) else { return refreshAndTrackUnheld(node, held) }
        refreshForRead(node, held)
        return stagingThreads == 0 && trackRead(node, held)
    }

    /// Whether an edge of the derivation being evaluated holds `node`: the one its
    /// evaluation is about to read, or one it recorded already. See `refreshAndTrackUnheld`.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    private func isHeldByEvaluation(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        let locked = state(held)
        guard let targetRef = locked.evaluatingRef else { return false }
        if held[trackedBy: node] == locked.evaluation.id { return true }
        let index = locked.evaluation.count
        return targetRef.with { target in
            index < held[sources: target].count
                && held[sources: target][index].ref.refers(to: node)
        }
    }

    /// `_refreshAndTrack` for a node no edge of the evaluation holds (out of line: the rare
    /// case), whose caller holds no reference to it across the call.
    ///
    /// A computed value's general read runs derivations, user code that could drop the last
    /// reference to the handle being read (and the handle's to its node). Inside a derivation
    /// that reads its sources in the order of its last evaluation, the node is the source of
    /// the evaluating node's next edge, or was recorded by it already: the edge holds it, and
    /// an edge let go of under the lock is released only after the lock is (as the walk's
    /// nodes are kept); `_refreshAndTrack` does not come here. Nor does a node that is up to
    /// date need anything, unless a batch is staging (its view may evaluate the node
    /// privately; this thread's sole write, staged first, counts): its refresh runs no
    /// derivation, and the read's tracking lets go of nothing until the lock is released.
    /// Anywhere else the node is retained here. A read that was tracked then left an edge
    /// holding it, so the release is never the last; otherwise it waits for the lock's
    /// outermost release, like a dropped edge, in case it is.
    ///
    /// Asking the caller to hold the node instead costs an atomic retain and release around
    /// every general read: code that reads handles out of an array (`for branch in branches {
    /// total += branch.value }`) made two per stale value it read.
    @inline(never)
    private func refreshAndTrackUnheld(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        // A read in the batch's view sees the batch's sole write (see `_SoleWrite`).
        stageSoleWriteOfCallingThread(held)
        let derived = _downcast(node, to: _DerivedNode.self)
        if stagingThreads == 0, !held[isEvaluating: derived], isFresh(derived, held) { return trackRead(node, held) }
        let ref = _Ref(node).retain()
        refresh(derived, held)
        let tracked = stagingThreads == 0 && trackRead(node, held)
        if tracked {
            ref.release()
        } else {
            releaseAfterUnlock(ref, held)
        }
        return tracked
    }

    /// The refresh of a read: inlined into both entry points above (a call from one to the
    /// other stayed a call).
    @inline(__always)
    private func refreshForRead(_ node: _Node, _ held: borrowing _HeldLock) {
        // A read in the batch's view sees the batch's sole write (see `_SoleWrite`).
        stageSoleWriteOfCallingThread(held)
        refresh(_downcast(node, to: _DerivedNode.self), held)
    }

    /// `_Node._endGeneralRead`'s outermost release (`_HeldLock.releaseAfterRead`).
    @usableFromInline
    final func _unlockAfterGeneralRead() {
        unlock()
    }

    /// `_Node._trackRead`'s work (the lock still held on return).
    @usableFromInline
    final func _trackRead(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        trackRead(node, held)
    }
}

extension _Graph {
    /// Records `dep` as read by the evaluation or run that `tracking` describes, if that needs
    /// no new edge: `dep` was already recorded by it, or it is what `target`'s edge at the next
    /// position read last time (whose version is then brought up to date). Returns false, with
    /// nothing changed, otherwise. `track` starts with it; so does the fast read path, which
    /// must release nothing (see `_Graph+FastRead.swift`): no closures, no strong references.
    @inline(__always)
    static func recordInPlace(
        _ dep: _Node, into targetRef: _Ref<_DerivedNode>, _ tracking: inout _Tracking, _ held: borrowing _HeldLock
    ) -> Bool {
        if held[trackedBy: dep] == tracking.id { return true }
        // Unretained: this runs inside the fast reads.
        return targetRef.with { target in
            let index = tracking.count
            guard index < held[sources: target].count,
                held[sources: target][index].ref.refers(to: dep)
            else { return false }
            held[trackedBy: dep] = tracking.id
            tracking.count = index &+ 1
            held[sources: target][index].version = held[version: dep]
            return true
        }
    }
}
