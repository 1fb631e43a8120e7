import _RippleRef

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
