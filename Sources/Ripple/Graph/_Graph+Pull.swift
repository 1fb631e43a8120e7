import _RippleRef

/// Why a scan of a node's sources stopped.
enum _ScanStop {
    /// A computed source must be brought up to date first.
    case stale
    /// A source's version differs from the one the node saw.
    case changed
    /// Every source is as the node saw it.
    case unchanged
}

extension _Graph {
    /// Whether a computed value can be used without looking at its sources.
    @inline(__always)
    func isFresh(_ node: _DerivedNode, _ held: borrowing _HeldLock) -> Bool {
        held[hasValue: node]
            && (held[hasObservers: node] ? !held[isStale: node] : held[verifiedEpoch: node] == state(held).epoch)
    }

    /// Records that the computed value `node` is up to date (an observed one needs only its
    /// stale mark cleared; see `isFresh`).
    @inline(__always)
    func markVerified(_ node: _DerivedNode, _ held: borrowing _HeldLock) {
        held[isStale: node] = false
        if !held[hasObservers: node] { held[verifiedEpoch: node] = state(held).epoch }
    }

    /// Brings a computed value up to date, evaluating only what really changed.
    ///
    /// A derivation reads its sources, and a source that is not up to date is brought up to
    /// date inside that read: a chain evaluated for the first time nests one derivation per
    /// node. That cannot be made a loop (the derivation is the caller's code, waiting for the
    /// value), so past `levelsLeftOnStack` the nested refresh continues on a helper thread
    /// with a fresh stack while this thread waits (see `refreshOnFreshStack`). Each level of
    /// nesting passes here: a derivation nests another only by reading a value not yet fresh.
    @inline(__always)
    func refresh(_ node: _DerivedNode, _ held: borrowing _HeldLock) {
        let locked = state(held)
        if held[isEvaluating: node] { failCycle(at: node, held) }
        if isFresh(node, held) { return }
        if _slowPath(locked.levelsLeftOnStack == 0) {
            refreshOnFreshStack(node, held)
            return
        }
        locked.levelsLeftOnStack &-= 1
        if !held[hasValue: node] || sourcesChangedInline(node, held) {
            recompute(node, held)
        } else {
            markVerified(node, held)
        }
        locked.levelsLeftOnStack &+= 1
    }

    /// Whether any source of `root` changed since `root` last read it.
    ///
    /// Stale computed sources are brought up to date first, depth first, with an explicit
    /// stack: a chain of any length is checked without recursion.
    func sourcesChanged(_ root: _DerivedNode, _ held: borrowing _HeldLock) -> Bool {
        guard sourcesChangedInline(root, held) else { return false }
        // A reaction that read a private value in a batch's view (see `_Graph+PrivateReads`):
        // the changed edge may be one to the value it saw after all.
        if _slowPath(state(held).hasPrivateReads) { return privateReadsLeftChanged(root, held) }
        return true
    }

    /// `sourcesChanged(_:)`, inlined into `refresh`: the scan of the root's own sources is a few
    /// instructions, where the call cost a frame of its own on every refresh.
    @inline(__always)
    private func sourcesChangedInline(_ root: _DerivedNode, _ held: borrowing _HeldLock) -> Bool {
        assertLockHeld()
        // First a plain scan of the root's own sources, without the stack: a node whose
        // sources are stored values (most computed values) is decided here. The walk starts
        // only at a computed source that must be brought up to date first.
        let (stop, index) = scan(root, from: 0, held)
        if stop != .stale { return stop == .changed }
        return sourcesChanged(root, resumingAt: index, held)
    }

    /// Scans the sources of `node` from `index` on: stops at the first computed source that is
    /// not fresh (`.stale`) or the first whose version differs from the edge's (`.changed`);
    /// returns where it stopped. Guaranteed references and the edges read in place: no
    /// reference counting.
    @inline(__always)
    private func scan(_ node: _DerivedNode, from start: Int, _ held: borrowing _HeldLock) -> (_ScanStop, Int) {
        let count = held[sources: node].count
        var index = start
        guard index < count else { return (.unchanged, index) }
        let sources = held[sources: node].elementsInPlace
        while index < count {
            let edge = sources[index]
            let stop = edge.ref.with { dep -> _ScanStop? in
                if dep.kind == .computed, !isFresh(_downcast(dep, to: _DerivedNode.self), held) { return .stale }
                return held[version: dep] != edge.version ? .changed : nil
            }
            if let stop { return (stop, index) }
            index &+= 1
        }
        return (.unchanged, index)
    }

    /// `sourcesChanged(root)` once the scan of `root` stopped at a stale computed source,
    /// number `index`: the depth-first walk, with an explicit stack.
    ///
    /// The node being scanned and where its scan resumes are kept in locals; `walk` holds only
    /// the nodes above it, each with the edge to resume at: a step down pushes the node left, a
    /// step up pops the one to go back to. A step up compares only the version on that edge:
    /// the node it leads to was just recomputed or verified, so it is fresh, and the scan's
    /// look at its freshness would only repeat that (along a chain that found nothing changed,
    /// this is most of the way back up).
    private func sourcesChanged(_ root: _DerivedNode, resumingAt index: Int, _ held: borrowing _HeldLock) -> Bool {
        let locked = state(held)
        let base = locked.walk.count
        var ref = _Ref(root)
        var index = index
        while true {
            // Guaranteed references and the edges read in place: the scan does no reference counting.
            let (stop, stopIndex) = ref.with { scan($0, from: index, held) }
            switch stop {
            case .stale:
                let depRef = ref.with { held[sources: $0][stopIndex].derivedRef }
                let descend = depRef.with { dep -> Bool in
                    if held[isEvaluating: dep] { failCycle(at: dep, held) }
                    if held[hasValue: dep] { return true }
                    recompute(dep, held)  // now fresh: the scan resumes at the same edge
                    return false
                }
                if descend {
                    locked.walk.append(_WalkFrame(ref: ref, index: stopIndex))
                    ref = depRef
                    index = 0
                } else {
                    index = stopIndex
                }
            case .changed, .unchanged:
                // Up the stack while the node just decided also decides the one above it: the
                // scan above stopped at the edge to it, which is fresh now, so only that edge's
                // version is left to compare (no second look at its freshness).
                var changed = stop == .changed
                while true {
                    if locked.walk.count == base { return changed }
                    let child = ref
                    let childVersion = child.with { node -> Int in
                        if changed { recompute(node, held) } else { markVerified(node, held) }
                        return held[version: node]
                    }
                    let frame = locked.walk.removeLast()
                    ref = frame.ref
                    // A derivation run by this walk may have cancelled the reaction being
                    // checked (directly, or through a teardown or cleanup): its disposal
                    // emptied the root's sources. Nothing is left to decide for it.
                    guard
                        let frameVersion = ref.with({ node -> Int? in
                            frame.index < held[sources: node].count ? held[sources: node][frame.index].version : nil
                        })
                    else {
                        while locked.walk.count > base { locked.walk.removeLast() }
                        return false
                    }
                    changed = frameVersion != childVersion
                    if !changed {
                        index = frame.index &+ 1
                        break
                    }
                }
            }
        }
    }

    /// Runs a computed value's derivation with tracking; bumps its version when the value changed.
    @inline(__always)
    func recompute(_ node: _DerivedNode, _ held: borrowing _HeldLock) {
        let locked = state(held)
        assertLockHeld()
        held[isEvaluating: node] = true
        // Unretained references throughout: saving and restoring the evaluating node costs no reference counting.
        let previous = locked.evaluatingRef
        locked.evaluatingRef = _Ref(node)
        locked.evaluationChain.append(.init(node))
        let interrupted = beginEvaluation(node, held)
        #if RIPPLE_INVARIANTS
        if node.kind != .computed {
            _rippleFailure("internal invariant: \(node.debugLabel) was evaluated like a computed value")
        }
        #endif
        let changed = _downcast(node, to: _ComputedNodeBase.self).specializedEvaluate(node)
        locked.evaluatingRef = previous
        locked.evaluationChain.removeLast()
        held[isEvaluating: node] = false
        endEvaluation(node, resuming: interrupted, held)
        held[hasValue: node] = true
        markVerified(node, held)
        if changed { held[version: node] &+= 1 }
        if tracingCount != 0 { traceEvaluation(of: node, changed: changed, held) }
    }

    /// Nested refreshes the reading thread runs before the next one moves to a fresh stack:
    /// about 240 KiB of stack in a debug build (750 KiB under AddressSanitizer), 60 KiB in
    /// release: within a secondary thread's 512 KiB on Apple platforms but under
    /// AddressSanitizer.
    static let levelsOnReadingThread = 256
    /// Nested refreshes a helper thread runs before the next one moves on again. About a
    /// dozen calls a level in a debug build: ThreadSanitizer's record of a thread's calls holds
    /// 65 536.
    static let levelsPerHelper = 2_048
    /// The stack of a helper thread: 16 KiB per level of nesting (a level takes under 1 KiB
    /// in a debug build, about 3 KiB under AddressSanitizer). Address space only: the pages a
    /// helper never touches are never allocated.
    static let helperStackSize = levelsPerHelper << 14

    /// Runs `refresh(node)` on a new thread with a stack of its own, to which this thread
    /// lends the lock (it holds it and waits, so the graph stays consistent and the helper
    /// sees everything this thread did). The helper nests `levelsPerHelper` refreshes before
    /// the next one moves on to another helper.
    ///
    /// Only the derivations nested deeper than `levelsOnReadingThread` run on a helper, on
    /// whatever thread the read came from, the same on every platform.
    ///
    /// A main-actor derivation (`MainActorComputed`) never moves: it is refreshed here, on the
    /// main thread, with the count left at zero, so that the next derivation nested in it that
    /// may run anywhere moves. Only main-actor code reads a main-actor value, so none is ever
    /// nested inside a derivation that moved.
    @inline(never)
    func refreshOnFreshStack(_ node: _DerivedNode, _ held: borrowing _HeldLock) {
        let locked = state(held)
        if node.derivesOnMainActor {
            if !held[hasValue: node] || sourcesChanged(node, held) {
                recompute(node, held)
            } else {
                markVerified(node, held)
            }
            return
        }
        let readerContext = locked.helpedReaderContext ?? _ThreadContext.currentRef
        let status = lock.lendToNewThread(stackSize: Self.helperStackSize) {
            // The reading thread's count is 0 (it has no levels left); the helper has its own.
            locked.levelsLeftOnStack = _Graph.levelsPerHelper
            let helped = locked.helpedReaderContext
            locked.helpedReaderContext = readerContext
            refresh(node, held)
            locked.helpedReaderContext = helped
            locked.levelsLeftOnStack = 0
        }
        if status != 0 {
            _rippleFailure(
                "evaluating \(node.debugLabel) nested in other derivations: could not start a thread with a fresh stack to go deeper (pthread_create failed with status \(status))"
            )
        }
    }

    /// Stops with a message naming every computed value on the cycle through `node`.
    func failCycle(at node: _DerivedNode, _ held: borrowing _HeldLock) -> Never {
        let locked = state(held)
        var names = [node.debugLabel]
        var index = locked.evaluationChain.count - 1
        while index >= 0, !locked.evaluationChain[index].refers(to: node) {
            names.append(locked.evaluationChain[index].object.debugLabel)
            index -= 1
        }
        names.append(node.debugLabel)
        _rippleFailure(
            "dependency cycle: \(names.reversed().joined(separator: " → ")). A computed value may not read itself, directly or through others."
        )
    }
}
