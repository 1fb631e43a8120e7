extension _Graph {
    /// Whether `node` is live: a reaction not yet disposed, or a computed value something live observes.
    @inline(__always)
    func isLive(_ node: _Node) -> Bool {
        switch node.kind {
        case .stored: return true
        case .computed: return node.hasObservers
        case .reaction, .watcher: return !unsafeDowncast(node, to: _SubscriberNode.self).isDisposed
        }
    }

    /// Records that the evaluation or reaction run in progress on this thread read `node`.
    /// Returns false when nothing is tracking (a top-level or untracked read).
    @inline(__always)
    func trackRead(_ node: _Node) -> Bool {
        if let target = evaluatingRef {
            target._withUnsafeGuaranteedRef { track(node, into: $0) }
            return true
        }
        return _ThreadContext.currentRef._withUnsafeGuaranteedRef { context in
            if context.untrackedDepth == 0, let reaction = context.reactionRef {
                reaction._withUnsafeGuaranteedRef { track(node, into: $0) }
                return true
            }
            return false
        }
    }

    /// Adds `dep` as the next source of `target`, reusing the edge of the previous run when it matches.
    @inline(__always)
    func track(_ dep: _Node, into target: _Node) {
        if dep.trackedBy == target.evaluationID { return }
        dep.trackedBy = target.evaluationID
        let index = target.trackCount
        target.trackCount = index &+ 1
        if index < target.sources.count {
            if target.sources[index].ref.toOpaque() == Unmanaged.passUnretained(dep).toOpaque() {
                target.sources[index].version = dep.version
                return
            }
            let old = target.sources[index]
            target.sources[index] = _Edge(retaining: dep, version: dep.version)
            // The old edge's reference moves to `replacedSources`, released when tracking ends.
            target.replacedSources.append(old)
            if isLive(target) { target.sources[index].slot = subscribe(target, to: dep) }
        } else {
            target.sources.append(_Edge(retaining: dep, version: dep.version))
            if isLive(target) { target.sources[index].slot = subscribe(target, to: dep) }
        }
    }

    /// Starts a tracked evaluation of `target`.
    @inline(__always)
    func beginTracking(_ target: _Node) {
        target.trackCount = 0
        target.evaluationID = makeID()
    }

    /// Ends a tracked evaluation: drops the sources that were not read again.
    func endTracking(_ target: _Node) {
        target.evaluationID = 0
        let kept = target.trackCount
        let count = target.sources.count
        let live = isLive(target)
        if kept < count {
            for index in kept..<count {
                let edge = target.sources[index]
                if live { unsubscribe(target, from: edge.node, slot: edge.slot) }
                releaseAfterUnlock(edge.ref)
            }
            target.sources.removeLast(count - kept)
        }
        if !target.replacedSources.isEmpty { dropReplacedSources(of: target, unsubscribing: live) }
        #if RIPPLE_INVARIANTS
        checkEdges(of: target)
        #endif
    }

    #if RIPPLE_INVARIANTS
    /// Debug builds: a live node appears among the observers of each of its sources exactly as
    /// often as the source appears among its sources, and a live computed source is live.
    func checkEdges(of target: _Node) {
        guard isLive(target) else { return }
        for index in 0..<target.sources.count {
            let edge = target.sources[index]
            var expected = 0
            for other in 0..<target.sources.count where target.sources[other].node === edge.node { expected += 1 }
            var actual = 0
            for link in 0..<edge.node.observers.count where edge.node.observers[link].node === target { actual += 1 }
            if expected != actual {
                _rippleFailure("internal invariant: \(target.debugLabel) reads \(edge.node.debugLabel) \(expected) time(s) but is linked \(actual) time(s)")
            }
        }
    }
    #endif

    /// Links `observer` (live) to `source`; a computed source that becomes live links to its own
    /// sources. Returns the slot of the new link, for the observer's edge.
    @discardableResult
    func subscribe(_ observer: _Node, to source: _Node) -> Int {
        let slot = addObserver(observer, to: source)
        guard source.kind == .computed, source.observerCount == 1 else { return slot }
        let base = scratch.count
        scratch.append(_Link(unretained: source))
        while scratch.count > base {
            unowned(unsafe) let node = scratch.removeLast().node
            // It becomes live right after a read brought it up to date; otherwise (never
            // evaluated, or verified in an earlier epoch) its next read verifies it.
            node.isStale = !(node.hasValue && node.verifiedEpoch == epoch)
            for index in 0..<node.sources.count {
                unowned(unsafe) let dep = node.sources[index].node
                node.sources[index].slot = addObserver(node, to: dep)
                if dep.kind == .computed, dep.observerCount == 1 { scratch.append(_Link(unretained: dep)) }
            }
        }
        return slot
    }

    /// Unlinks one edge from `observer` to `source`; a computed source left unobserved unlinks from its sources.
    func unsubscribe(_ observer: _Node, from source: _Node, slot: Int) {
        removeObserver(observer, of: source, slot: slot)
        guard source.kind == .computed, !source.hasObservers else { return }
        let base = scratch.count
        scratch.append(_Link(unretained: source))
        while scratch.count > base {
            unowned(unsafe) let node = scratch.removeLast().node
            if !node.isStale { node.verifiedEpoch = epoch }
            for index in 0..<node.sources.count {
                let edge = node.sources[index]
                unowned(unsafe) let dep = edge.node
                removeObserver(node, of: dep, slot: edge.slot)
                if dep.kind == .computed, !dep.hasObservers { scratch.append(_Link(unretained: dep)) }
            }
        }
    }

    @inline(__always)
    private func addObserver(_ observer: _Node, to source: _Node) -> Int {
        source.observers.append(_Link(retaining: observer))
        source.observerCount += 1
        return source.observers.count - 1
    }

    /// Removes one entry for `observer` from `source.observers`, keeping the order of the rest.
    ///
    /// The entry is found at the edge's `slot` hint, or else by scanning from both ends, and
    /// replaced by a tombstone; the list is compacted once tombstones outnumber live entries,
    /// and the compaction moves the hints along, so removal is amortized O(1).
    private func removeObserver(_ observer: _Node, of source: _Node, slot: Int) {
        let target = Unmanaged.passUnretained(observer).toOpaque()
        var front = source.observerHead
        var back = source.observers.count - 1
        var found = -1
        if slot >= front, slot <= back, source.observers[slot].ref.toOpaque() == target {
            found = slot
            front = back + 1
        }
        while front <= back {
            if source.observers[back].ref.toOpaque() == target { found = back; break }
            if source.observers[front].ref.toOpaque() == target { found = front; break }
            front += 1
            back -= 1
        }
        guard found >= 0 else {
            #if RIPPLE_INVARIANTS
            _rippleFailure("internal invariant: \(observer.debugLabel) was not an observer of \(source.debugLabel)")
            #else
            return
            #endif
        }
        releaseAfterUnlock(source.observers[found].ref)
        source.observerCount -= 1
        if source.observerCount == 0 {
            source.observers.removeAll()
            source.observerHead = 0
            source.observerHoles = 0
            return
        }
        if found == source.observers.count - 1 {
            source.observers.removeLast()
            while let last = source.observers.last, last.ref.toOpaque() == _tombstone.toOpaque() {
                source.observers.removeLast()
                source.observerHoles -= 1
            }
        } else {
            source.observers[found] = _Link(unretained: _tombstone.takeUnretainedValue())
            source.observerHoles += 1
            if found == source.observerHead {
                while source.observers[source.observerHead].ref.toOpaque() == _tombstone.toOpaque() {
                    source.observerHead += 1
                }
            }
        }
        if source.observerHoles > 16, source.observerHoles > source.observerCount {
            compactObservers(of: source)
        }
    }

    /// Drops the tombstones from `source.observers`, keeping the order of the live entries, and
    /// moves each live observer's slot hint for `source` along with its entry, so that removals
    /// after a compaction stay O(1).
    ///
    /// - Complexity: O(*n*) for *n* observers: hints are moved only for observers of at most
    ///   `hintMoveLimit` sources. Amortized O(1) per removal, since it runs only once tombstones
    ///   outnumber live entries.
    private func compactObservers(of source: _Node) {
        let tombstone = _tombstone.toOpaque()
        let sourceID = Unmanaged.passUnretained(source).toOpaque()
        var kept = 0
        if let observers = source.observers.elements {
            for index in source.observerHead..<source.observers.count {
                let link = observers[index]
                if link.ref.toOpaque() == tombstone { continue }
                observers[kept] = link
                if index != kept {
                    link.ref._withUnsafeGuaranteedRef { observer in
                        // Only for observers of few sources: finding the edge costs a scan of
                        // them. Others keep a stale hint, which is checked before use.
                        guard observer.sources.count + observer.replacedSources.count <= Self.hintMoveLimit else { return }
                        Self.moveSlotHint(in: &observer.sources, for: sourceID, from: index, to: kept)
                        Self.moveSlotHint(in: &observer.replacedSources, for: sourceID, from: index, to: kept)
                    }
                }
                kept += 1
            }
        }
        source.observers.removeLast(source.observers.count - kept)
        source.observerHead = 0
        source.observerHoles = 0
    }

    /// Observers with more sources than this keep a stale slot hint when a compaction moves them.
    static let hintMoveLimit = 8

    /// Points the edge of `edges` that was linked to `source` at `from` to `to` instead.
    private static func moveSlotHint(in edges: inout _Buffer<_Edge>, for source: UnsafeMutableRawPointer, from: Int, to: Int) {
        for index in 0..<edges.count where edges[index].slot == from && edges[index].ref.toOpaque() == source {
            edges[index].slot = to
            return
        }
    }

    /// Unlinks a disposed subscriber from all its sources. Returns the dropped edges (each
    /// still holding its reference), which the caller hands to `_releaseLater` once the lock is
    /// released (freeing them may run deinitializers of user objects).
    func disposeSources(of node: _Node) -> _Buffer<_Edge> {
        var sources = node.sources.take()
        node.trackCount = 0
        let count = sources.count
        for index in 0..<count {
            let edge = sources[index]
            unsubscribe(node, from: edge.node, slot: edge.slot)
        }
        if !node.replacedSources.isEmpty { dropReplacedSources(of: node, unsubscribing: true) }
        return sources.take()
    }

    /// Releases the edges a tracked evaluation replaced, unlinking them first if the node was
    /// live when it read them.
    private func dropReplacedSources(of node: _Node, unsubscribing: Bool) {
        let replaced = node.replacedSources.take()
        for index in 0..<replaced.count {
            let old = replaced[index]
            if unsubscribing { unsubscribe(node, from: old.node, slot: old.slot) }
            releaseAfterUnlock(old.ref)
        }
    }
}
