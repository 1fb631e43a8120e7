/// The graph's internal invariants, in one place. Every check here compiles to nothing unless
/// `RIPPLE_INVARIANTS` is defined (debug builds, which the test suite and CI's sanitizer runs
/// use), and none changes an operation's complexity: each costs O(1) per edge it looks at,
/// and looks only at what the operation itself touched.
extension _Graph {
    /// Stops the program if the calling thread does not hold the graph's lock: called first by
    /// every function that needs it.
    @inline(__always)
    func assertLockHeld(_ function: StaticString = #function) {
        #if RIPPLE_INVARIANTS
        if !lock.isHeldForTesting { _rippleFailure("internal invariant: \(function) needs the graph's lock") }
        #endif
    }

    /// Stops the program if a read at the top level (a reaction's, or untracked) finishes on a
    /// thread whose batch keeps a sole write not yet staged: the read did not see the batch's
    /// view (see `_SoleWrite`). O(1).
    @inline(__always)
    func assertSoleWriteStaged(_ held: borrowing _HeldLock, _ function: StaticString = #function) {
        #if RIPPLE_INVARIANTS
        if state(held).evaluatingRef == nil, state(held).suspendedEvaluatingRef == nil,
            let context = _ThreadContext.existingRef,
            context.object.soleWrite.isPending
        {
            _rippleFailure(
                "internal invariant: \(function) read at the top level with the batch's sole write not staged")
        }
        #endif
    }

    #if RIPPLE_INVARIANTS
    /// Debug builds: each edge of a live node has its own link among its source's observers, at
    /// the edge's slot, and that link points back at the edge. O(*n*) in the node's edges.
    func checkEdges(of target: _DerivedNode, _ held: borrowing _HeldLock) {
        guard isLive(target, held) else { return }
        for index in 0..<held[sources: target].count {
            checkLink(of: target, edge: held[sources: target][index], at: index, held)
        }
        // What an evaluation replaced is dropped when it ends; a subscriber's run is checked
        // when it ends too, but its replaced sources are checked wherever they are.
        if target.kind != .computed, let replaced = state(held).replacedByRuns[ObjectIdentifier(target)] {
            for index in 0..<replaced.count {
                checkLink(of: target, edge: replaced[index], at: ~index, held)
            }
        }
    }

    private func checkLink(of target: _Node, edge: _Edge, at position: Int, _ held: borrowing _HeldLock) {
        let source = edge.node
        guard held[observers: source].slots.contains(edge.slot),
            held[observers: source][edge.slot].ref.refers(to: target),
            held[observers: source][edge.slot].edge == position
        else {
            _rippleFailure(
                "internal invariant: \(target.debugLabel) reads \(edge.node.debugLabel) but its link is not at slot \(edge.slot)"
            )
        }
    }
    #endif
}
