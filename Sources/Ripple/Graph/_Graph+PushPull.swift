import _RippleRef

// The graph's algorithm. A write *pushes*: it marks stale everything live downstream and
// queues the reactions it reaches (nothing is evaluated). A read *pulls*: a stale node checks
// its sources, newest first, and evaluates again only when one of them really changed. Both
// walk the edges that *tracking* records, as each evaluation or run reads its sources.

// MARK: - Push

extension _Graph {
    /// Marks everything live downstream of `source` stale and queues the reactions it reaches.
    /// Stops at nodes already stale: what lies beyond them is already marked. While another
    /// thread has a reaction's run in progress, then tells the runs the change reached (see
    /// `_RunSnapshots`).
    func propagate(from source: _Node, into context: _ThreadContext, _ held: borrowing _HeldLock) {
        markDownstream(of: source, context, held)
        if state(held).snapshots.runningThreads != 0 { changePropagated(from: source, context, held) }
    }

    /// `propagate`'s marking.
    @inline(__always)
    private func markDownstream(of source: _Node, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        assertLockHeld()
        let base = locked.scratch.count
        // The node to visit next, when it need not go through `scratch`: the only observer of
        // the node just visited, if it is a computed value to mark (the stack would give it
        // back at once). Along a chain, every node.
        var next: _Ref<_Node>? = .init(source)
        while true {
            let node: _Ref<_Node>
            if let following = next {
                node = following
                next = nil
            } else if locked.scratch.count > base {
                node = locked.scratch.removeLast()
            } else {
                return
            }
            // The node's slots through a closure that only reads them: the optimizer inlines
            // it, where a closure holding the loop below stayed a call per node. Marking only
            // pushes onto `scratch`; it never changes the list. A tombstone's node is a stored
            // value: marking passes it by.
            let links = node.with { held[observers: $0].slotsInUse }
            let end = links.count
            if end == 1 {
                // One observer: a computed one is visited next, without the stack, unless it
                // is marked already (a diamond's other branches), and then there is nothing to do.
                let only = links[0].ref
                if only.with({ $0.kind == .computed }) {
                    if only.with({ !held[isStale: $0] }) {
                        only.with { held[isStale: $0] = true }
                        next = only
                    }
                    continue
                }
            }
            var slot = 0
            while slot < end {
                links[slot].ref.with { mark($0, context, held) }
                slot &+= 1
            }
        }
    }

    @inline(__always)
    private func mark(_ observer: _Node, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        // Tests in order of frequency rather than a `switch`: its jump table is an indirect
        // branch, mispredicted more often along a chain of computed values ending in a reaction.
        let kind = observer.kind
        if kind == .computed {
            if held[isStale: observer] { return }
            held[isStale: observer] = true
            state(held).scratch.append(.init(observer))
        } else if kind == .reaction {
            let reaction = _downcast(observer, to: _ReactionNode.self)
            // A write its own body queued: the lifecycle counts the run it triggers.
            switch held[lifecycle: reaction].marked(
                bySelf: context.writerRef?.refers(to: observer) == true)
            {
            case .none: return
            case .queue: context.jobs.append(.reaction(reaction))
            case .stopRunaway: stopRunaway(reaction, held)
            }
        } else if kind == .watcher {
            let watcher = _downcast(observer, to: _WatcherNode.self)
            held[lifecycle: watcher].jobQueued()
            context.jobs.append(.watch(watcher))
        }
    }

    /// A reaction re-triggered itself more than `maximumRounds` times in a row:
    /// stops the program with a message naming it.
    @inline(never)
    private func stopRunaway(_ reaction: _ReactionNode, _ held: borrowing _HeldLock) -> Never {
        _rippleFailure(
            "runaway reaction: \(reaction.debugLabel) re-triggered itself more than \(_Graph.maximumRounds) times in a row: each run writes a value it reads, and that write runs it again (counted across executor hops: on an actor every run is a delivery of its own). A reaction that writes what it reads must stop changing it."
        )
    }
}

// MARK: - Pull

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

// MARK: - Tracking

extension _Graph {
    /// Whether `node` is live: a reaction not yet disposed, or a computed value something live observes.
    @inline(__always)
    func isLive(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        switch node.kind {
        case .stored: return true
        case .computed: return held[hasObservers: node]
        case .reaction, .watcher: return !held[isDisposed: _downcast(node, to: _SubscriberNode.self)]
        }
    }

    /// Records that the evaluation or reaction run in progress on this thread read `node`.
    /// Returns false when nothing is tracking (a top-level or untracked read).
    @inline(__always)
    func trackRead(_ node: _Node, _ held: borrowing _HeldLock) -> Bool {
        if let target = state(held).evaluatingRef {
            target.with { track(node, into: $0, held) }
            return true
        }
        assertSoleWriteStaged(held)
        return _ThreadContext.currentRef.with { context in
            if context.untrackedDepth == 0, let reaction = context.reactionRef {
                reaction.with {
                    track(node, intoRunOf: _downcast($0, to: _SubscriberNode.self), context, held)
                }
                return true
            }
            return false
        }
    }

    /// The version a reaction's edge to a computed value records for a read of its private
    /// value in a batch's view: one no computed value ever has (their versions count up from
    /// 0), so the reaction runs again once marked after the batch, whatever the node's value
    /// then. Without it, an apply that leaves the node's value as it was (the batch wrote its
    /// source back, or the last write gives the old result) left the reaction with a value
    /// that was never committed.
    static let privateReadVersion = Int.min

    /// Makes the edge that the reaction run in progress on this thread just recorded for `dep`
    /// hold `version` instead of `dep`'s current one. For a read of a value staged
    /// by this thread's batch: `version` is the one it will have once applied (see
    /// `_StagedRead`). Does nothing when no reaction's run tracked the read, or when its last
    /// recorded edge is to another node (`dep` was recorded earlier in the run, before the
    /// batch staged what it reads now: the run goes again once the batch is applied).
    /// Returns the reaction whose edge it changed, if any.
    @discardableResult
    func recordVersionOfRunRead(of dep: _Node, _ version: Int, _ held: borrowing _HeldLock) -> ObjectIdentifier? {
        guard state(held).evaluatingRef == nil else { return nil }
        return _ThreadContext.currentRef.with { context -> ObjectIdentifier? in
            guard context.untrackedDepth == 0, let reaction = context.reactionRef else { return nil }
            let index = context.runTracking.count &- 1
            return reaction.with { subscriber -> ObjectIdentifier? in
                guard index >= 0, index < held[sources: subscriber].count,
                    held[sources: subscriber][index].ref.refers(to: dep)
                else { return nil }
                held[sources: subscriber][index].version = version
                return ObjectIdentifier(subscriber)
            }
        }
    }

    /// Adds `dep` as the next source of `target`, the computed value being evaluated (see
    /// `beginEvaluation`), reusing the edge of its last evaluation when it matches.
    @inline(__always)
    func track(_ dep: _Node, into target: _DerivedNode, _ held: borrowing _HeldLock) {
        let locked = state(held)
        if Self.recordInPlace(dep, into: .init(target), &locked.evaluation, held) { return }
        held[trackedBy: dep] = locked.evaluation.id
        let index = locked.evaluation.count
        locked.evaluation.count = index &+ 1
        setSource(dep, of: target, at: index, held)
    }

    /// Adds `dep` as the next source of `subscriber`, whose run is in progress on the thread of
    /// `context` (see `beginTracking`), reusing the edge of its last run when it matches.
    @inline(__always)
    func track(
        _ dep: _Node, intoRunOf subscriber: _SubscriberNode, _ context: _ThreadContext, _ held: borrowing _HeldLock
    ) {
        if Self.recordInPlace(dep, into: .init(subscriber), &context.runTracking, held) { return }
        held[trackedBy: dep] = context.runTracking.id
        let index = context.runTracking.count
        context.runTracking.count = index &+ 1
        setSource(dep, of: subscriber, at: index, held)
    }

    /// Makes `dep` source number `index` of `target`, where `recordInPlace` found another
    /// source or none: replaces the edge there, or appends a new one.
    @inline(__always)
    private func setSource(_ dep: _Node, of target: _DerivedNode, at index: Int, _ held: borrowing _HeldLock) {
        if index < held[sources: target].count {
            replaceSource(at: index, of: target, with: dep, held)
        } else {
            held[sources: target].append(_Edge(retaining: dep, version: held[version: dep]))
            if isLive(target, held) {
                held[sources: target][index].slot = subscribe(target, to: dep, edge: index, held)
            }
        }
    }

    /// `track`'s rare case: the evaluation read `dep` where the last one read another source.
    /// The old edge's reference moves to the replaced sources, released when tracking ends.
    private func replaceSource(at index: Int, of target: _DerivedNode, with dep: _Node, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let old = held[sources: target][index]
        held[sources: target][index] = _Edge(retaining: dep, version: held[version: dep])
        let live = isLive(target, held)
        let replaced: Int
        if target.kind == .computed {
            replaced = locked.replacedByEvaluations.count
            locked.replacedByEvaluations.append(old)
        } else {
            replaced = locked.replacedByRuns[ObjectIdentifier(target), default: []].count
            locked.replacedByRuns[ObjectIdentifier(target), default: []].append(old)
        }
        if live {
            old.ref.with { held[observers: $0].setEdge(~replaced, at: old.slot) }
            held[sources: target][index].slot = subscribe(target, to: dep, edge: index, held)
        }
    }

    /// Starts a tracked evaluation of the computed value `target`. Returns the state of the
    /// evaluation it interrupts, if any, which `endEvaluation` restores.
    @inline(__always)
    func beginEvaluation(_ target: _DerivedNode, _ held: borrowing _HeldLock) -> (
        tracking: _Tracking, replacedBase: Int
    ) {
        let locked = state(held)
        assertLockHeld()
        let interrupted = (locked.evaluation, locked.evaluationReplacedBase)
        locked.evaluation = _Tracking(id: makeID(held), count: 0)
        locked.evaluationReplacedBase = locked.replacedByEvaluations.count
        return interrupted
    }

    /// Ends a tracked evaluation of the computed value `target`: drops the sources that were
    /// not read again, and restores the evaluation it interrupted.
    @inline(__always)
    func endEvaluation(
        _ target: _DerivedNode, resuming interrupted: (tracking: _Tracking, replacedBase: Int),
        _ held: borrowing _HeldLock
    ) {
        let locked = state(held)
        assertLockHeld()
        // Most evaluations read what the last one did: nothing to drop.
        if _slowPath(
            locked.evaluation.count < held[sources: target].count
                || locked.evaluationReplacedBase < locked.replacedByEvaluations.count)
        {
            dropUnread(by: target, held)
        }
        locked.evaluation = interrupted.tracking
        locked.evaluationReplacedBase = interrupted.replacedBase
        #if RIPPLE_INVARIANTS
        checkEdges(of: target, held)
        #endif
    }

    /// `endEvaluation`'s rare case: drops the sources the evaluation of `target` did not read
    /// again, and those it replaced.
    @inline(never)
    private func dropUnread(by target: _DerivedNode, _ held: borrowing _HeldLock) {
        let live = isLive(target, held)
        dropSources(of: target, after: state(held).evaluation.count, unsubscribing: live, held)
        let base = state(held).evaluationReplacedBase
        let count = state(held).replacedByEvaluations.count
        guard base < count else { return }
        // The closures reach the graph and the node unretained (`_Ref`): capturing them costs a retain each.
        let unlinked = unlinkEdges(base..<count, of: target, unsubscribing: live, held) { index in
            _graphRef.with { $0.state(held).replacedByEvaluations[index] }
        }
        state(held).replacedByEvaluations.removeLast(unlinked)
    }

    /// Starts tracking a run of `subscriber` on the thread of `context`. Returns the tracking
    /// state of the run it interrupts there, if any, which `endTracking` restores.
    @inline(__always)
    func beginTracking(_ subscriber: _SubscriberNode, _ context: _ThreadContext, _ held: borrowing _HeldLock)
        -> _Tracking
    {
        assertLockHeld()
        if state(held).hasPrivateReads { forgetPrivateReads(of: subscriber, held) }
        let interrupted = context.runTracking
        context.runTracking = _Tracking(id: makeID(held), count: 0)
        return interrupted
    }

    /// Ends tracking a run of `subscriber` on the thread of `context`: drops the sources that
    /// were not read again, and restores the run it interrupted.
    func endTracking(
        _ subscriber: _SubscriberNode, _ context: _ThreadContext, resuming interrupted: _Tracking,
        _ held: borrowing _HeldLock
    ) {
        assertLockHeld()
        let kept = context.runTracking.count
        context.runTracking = interrupted
        // Asked again inside: the common case (nothing dropped, nothing replaced) reads the
        // table only when no source was dropped, and then only whether it is empty.
        if _slowPath(kept < held[sources: subscriber].count || hasReplacedSources(subscriber, held)) {
            let live = isLive(subscriber, held)
            dropSources(of: subscriber, after: kept, unsubscribing: live, held)
            if hasReplacedSources(subscriber, held) { dropReplacedSources(of: subscriber, unsubscribing: live, held) }
        }
        #if RIPPLE_INVARIANTS
        checkEdges(of: subscriber, held)
        #endif
    }

    /// Drops the sources of `target` from `kept` on: those its evaluation did not read again.
    private func dropSources(
        of target: _DerivedNode, after kept: Int, unsubscribing live: Bool, _ held: borrowing _HeldLock
    ) {
        let count = held[sources: target].count
        guard kept < count else { return }
        let targetRef = _Ref(target)
        held[sources: target].removeLast(
            unlinkEdges(kept..<count, of: target, unsubscribing: live, held) { index in
                targetRef.with { held[sources: $0][index] }
            })
    }

    /// Unlinks `target` from the source of each edge in `indices` (if it is live) and hands the
    /// edge's reference to the release after unlock; returns how many edges that was, for the
    /// caller to remove them from wherever they are kept. The edges are read in place, one at a
    /// time (`edge(index)`): a compaction the unlinking causes may move the links of the edges
    /// not yet dropped, and updates their slots where they are.
    private func unlinkEdges(
        _ indices: Range<Int>, of target: _DerivedNode, unsubscribing live: Bool, _ held: borrowing _HeldLock,
        _ edge: (Int) -> _Edge
    ) -> Int {
        for index in indices {
            let dropped = edge(index)
            if live { dropped.ref.with { unsubscribe(target, from: $0, slot: dropped.slot, held) } }
            releaseAfterUnlock(dropped.ref, held)
        }
        return indices.count
    }

    /// Links `observer` (live) to `source`; a computed source that becomes live links to its own
    /// sources. Returns the slot of the new link, for the observer's edge.
    ///
    /// - Parameter edge: Where `observer` keeps the edge: its index in `sources` (a watcher's
    ///   only edge: 0).
    @discardableResult
    func subscribe(_ observer: _DerivedNode, to source: _Node, edge: Int = 0, _ held: borrowing _HeldLock) -> Int {
        let locked = state(held)
        assertLockHeld()
        guard becomesLive(source, held) else { return addObserver(observer, to: source, edge: edge, held) }
        markBecomingLive(source, held)
        let slot = addObserver(observer, to: source, edge: edge, held)
        let base = locked.scratch.count
        locked.scratch.append(.init(source))
        // Guaranteed references throughout: the walk does no reference counting.
        while locked.scratch.count > base {
            locked.scratch.removeLast().with { top in
                let node = _downcast(top, to: _DerivedNode.self)
                for index in 0..<held[sources: node].count {
                    held[sources: node][index].ref.with { dep in
                        let activates = becomesLive(dep, held)
                        if activates { markBecomingLive(dep, held) }
                        held[sources: node][index].slot = addObserver(node, to: dep, edge: index, held)
                        if activates { locked.scratch.append(.init(dep)) }
                    }
                }
            }
        }
        return slot
    }

    /// Whether a link added to `source` makes it live: a computed value nothing observes yet.
    @inline(__always)
    private func becomesLive(_ source: _Node, _ held: borrowing _HeldLock) -> Bool {
        source.kind == .computed && !held[hasObservers: source]
    }

    /// A computed value about to become live (its first link not yet added, so its verified
    /// epoch, kept in its empty observer list, is still there): it is up to date if a read
    /// brought it up to date in this epoch, right before; otherwise (never evaluated, or verified
    /// in an earlier epoch) it is marked stale and its next read verifies it.
    @inline(__always)
    private func markBecomingLive(_ node: _Node, _ held: borrowing _HeldLock) {
        held[isStale: node] = !(held[hasValue: node] && held[verifiedEpoch: node] == state(held).epoch)
    }

    /// Unlinks one edge from `observer` to `source`; a computed source left unobserved unlinks
    /// from its sources. A stored value left unobserved, directly or through the computed values
    /// unlinked, runs its handler (`notifiesWhenUnobserved`).
    func unsubscribe(_ observer: _DerivedNode, from source: _Node, slot: Int, _ held: borrowing _HeldLock) {
        let locked = state(held)
        assertLockHeld()
        removeObserver(observer, of: source, slot: slot, held)
        guard !held[hasObservers: source] else { return }
        guard source.kind == .computed else {
            // A stored value's last observer went. One flag test: an `AsyncComputed`'s phase
            // stops its operation then.
            if source.notifiesWhenUnobserved { noteUnobserved(source, held) }
            return
        }
        let base = locked.scratch.count
        locked.scratch.append(.init(source))
        // Guaranteed references throughout: the walk does no reference counting.
        while locked.scratch.count > base {
            locked.scratch.removeLast().with { top in
                let node = _downcast(top, to: _DerivedNode.self)
                if !held[isStale: node] { held[verifiedEpoch: node] = locked.epoch }
                for index in 0..<held[sources: node].count {
                    let edge = held[sources: node][index]
                    edge.ref.with { dep in
                        removeObserver(node, of: dep, slot: edge.slot, held)
                        held[sources: node][index].slot = -1
                        guard !held[hasObservers: dep] else { return }
                        if dep.kind == .computed {
                            locked.scratch.append(.init(dep))
                        } else if dep.notifiesWhenUnobserved {
                            // Read only through computed values, all unobserved now.
                            noteUnobserved(dep, held)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func addObserver(_ observer: _Node, to source: _Node, edge: Int, _ held: borrowing _HeldLock) -> Int {
        held[observers: source].append(_Link(observer, edge: edge), spares: &state(held).spareObserverBlocks)
    }

    /// Removes the link at `slot` (which must be `observer`'s) from `source.observers` (see
    /// `_ObserverList.remove`), moving the slot of each edge whose link a compaction moves,
    /// and releases the link's reference once the lock is released.
    ///
    /// - Complexity: Amortized O(1).
    private func removeObserver(_ observer: _Node, of source: _Node, slot: Int, _ held: borrowing _HeldLock) {
        // The closure reaches the graph through `_graphRef` rather than capturing `self`: a
        // closure with no context costs no retain of the graph around every removal.
        let removed = held[observers: source].remove(at: slot, of: observer, spares: &state(held).spareObserverBlocks) {
            link, newSlot in
            link.derivedRef.with { observer in
                if link.edge >= 0 {
                    held[sources: observer][link.edge].slot = newSlot
                } else if observer.kind == .computed {
                    _graphRef.with { $0.state(held).replacedByEvaluations[~link.edge].slot = newSlot }
                } else {
                    _graphRef.with {
                        $0.state(held).replacedByRuns[ObjectIdentifier(observer)]![~link.edge].slot = newSlot
                    }
                }
            }
        }
        guard let removed else {
            _rippleFailure(
                "internal invariant: \(observer.debugLabel) is not at slot \(slot) of the observers of \(source.debugLabel)"
            )
        }
        // Only a subscriber's link holds a reference (see `_Link`).
        if observer.kind != .computed { releaseAfterUnlock(removed, held) }
    }

    /// Unlinks a disposed subscriber from all its sources. Returns the dropped edges (each
    /// still holding its reference), which the caller hands to `_releaseLater` once the lock is
    /// released (freeing them may run deinitializers of user objects).
    func disposeSources(of node: _SubscriberNode, _ held: borrowing _HeldLock) -> _Buffer<_Edge> {
        assertLockHeld()
        if state(held).hasPrivateReads { forgetPrivateReads(of: node, held) }
        // Unlinked in place (see `unlinkEdges`), then taken.
        for index in 0..<held[sources: node].count {
            let edge = held[sources: node][index]
            unsubscribe(node, from: edge.node, slot: edge.slot, held)
        }
        if hasReplacedSources(node, held) { dropReplacedSources(of: node, unsubscribing: true, held) }
        return held[sources: node].take()
    }

    /// Releases the edges a tracked evaluation replaced, unlinking them first if the node was
    /// live when it read them.
    private func dropReplacedSources(of node: _SubscriberNode, unsubscribing: Bool, _ held: borrowing _HeldLock) {
        let id = ObjectIdentifier(node)
        _ = unlinkEdges(0..<state(held).replacedByRuns[id]!.count, of: node, unsubscribing: unsubscribing, held) {
            index in
            _graphRef.with { $0.state(held).replacedByRuns[id]![index] }
        }
        state(held).replacedByRuns[id] = nil
    }

    /// Whether a run of `subscriber` replaced sources it has not dropped yet.
    @inline(__always)
    func hasReplacedSources(_ subscriber: _SubscriberNode, _ held: borrowing _HeldLock) -> Bool {
        let locked = state(held)
        return !locked.replacedByRuns.isEmpty && locked.replacedByRuns[ObjectIdentifier(subscriber)] != nil
    }
}
