/// Whether a read made now on this thread is tracked: a computed value is being evaluated on
/// this thread, or a reaction's body or a `tracked { }` scope runs here, outside
/// `untracked { }`. For the modules above, which answer an untracked read differently (a
/// store shows its committing thread the commits it made, before they are delivered).
///
/// - Complexity: O(1): takes the graph's lock once.
package func _readIsTracked() -> Bool {
    let graph = _graph
    let held = graph.takeLock()
    // Only the thread evaluating a derivation finds it set once it holds the lock.
    let isEvaluating = graph.state(held).evaluatingRef != nil
    held.release(graph)
    if isEvaluating { return true }
    let context = _ThreadContext.current
    guard context.untrackedDepth == 0 else { return false }
    return context.reactionRef != nil || context.observationScopeRef != nil
}

/// Whether a tracer is installed: a store's commit then goes through ``traceCommit(of:transaction:_:)``;
/// without one it commits directly, without the closure that function takes.
///
/// - Complexity: O(1): no lock.
package func _commitsAreTraced() -> Bool {
    _graph.hasTracersInstalled
}

/// Whether a write made now on this thread is applied, and delivered, before it returns, as
/// `writeInOrder` would apply it: false inside a reaction or a change handler (a write is
/// queued after the current round there) and while a tracer is installed (`writeInOrder`'s
/// batch is traced). The store's commit writes directly when this holds, without the closure
/// and the batch `writeInOrder` needs.
///
/// - Complexity: O(1): no lock.
package func _writesApplyInPlace() -> Bool {
    // Through the unretained reference: a store's commit asks this every time, and the
    // retained context cost a retain and a release (two atomic operations) per commit.
    if _ThreadContext.currentRef.with({ $0.writes.isDelivering }) { return false }
    return !_graph.hasTracersInstalled
}
