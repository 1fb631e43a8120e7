/// Runs `body`, a commit of a store built on Ripple, and tells the tracers about it with the
/// reactions that ran on this thread because of it (RippleStore's `commit` calls it).
///
/// With no tracer installed, it only runs `body` (after one check of the graph's flag).
///
/// - Parameters:
///   - store: The store's name.
///   - transaction: What the commit did, such as its name or the action it reduced.
///   - body: The commit.
/// - Returns: What `body` returns.
public func traceCommit<R, Failure: Error>(
    of store: @autoclosure () -> String,
    transaction: @autoclosure () -> String,
    _ body: () throws(Failure) -> R
) throws(Failure) -> R {
    guard _graph.withLock({ _graph.isTracing }) else { return try body() }
    let context = _ThreadContext.current
    context.wokeReactions.append([])
    defer {
        let woke = context.wokeReactions.removeLast()
        let event = _PendingTrace.commit(store: store(), transaction: transaction(), woke: woke)
        _graph.withLock { _graph.recordTrace(event, context) }
    }
    return try body()
}
