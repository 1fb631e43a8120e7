/// Whether a read made now on this thread is tracked: a computed value is being evaluated on
/// this thread, or a reaction's body or a `tracked { }` scope runs here, outside
/// `untracked { }`. For the modules above, which answer an untracked read differently (a
/// store shows its committing thread the commits it made, before they are delivered).
///
/// - Complexity: O(1): takes the graph's lock once.
package func _readIsTracked() -> Bool {
    let graph = _graph
    graph.lock.lock()
    defer { graph.lock.unlock() }
    // Only the thread evaluating a derivation finds it set once it holds the lock.
    if graph.evaluatingRef != nil { return true }
    let context = _ThreadContext.current
    guard context.untrackedDepth == 0 else { return false }
    return context.reactionRef != nil || context.observationScopeRef != nil
}
