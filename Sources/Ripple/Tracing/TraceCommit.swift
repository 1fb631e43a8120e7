/// Runs `body`, a commit of a store built on Ripple, and tells the tracers about it with the
/// reactions that ran on this thread because of it (RippleStore's `commit` calls it).
///
/// Inside a reaction, where writes are queued after the current round, the commit is traced
/// once the reactions its writes woke have run.
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
    // The commit counts the reactions run on this thread from `open` to `close`, then is traced.
    let open = { context.wokeReactions.append([]) }
    let close = { (store: String, transaction: String) in
        let event = _PendingTrace.commit(store: store, transaction: transaction, woke: context.wokeReactions.removeLast())
        _graph.withLock { _graph.recordTrace(event, context) }
    }
    if context.isDelivering {
        // Inside a reaction (a delivery on this thread), the commit's writes are queued after
        // the current round, and the reactions they wake run in the rounds that follow: the
        // count starts in a write queued before the commit's, and the commit is recorded, with
        // them, in one queued after. (A commit inside a batch in the reaction, whose writes are
        // queued as one unit with these, still names none.) Neither counts as a round toward
        // a runaway loop (`writesNothing`).
        _graph.queueWrite(context, writesNothing: true, open)
        defer {
            let store = store(), transaction = transaction()
            _graph.queueWrite(context, writesNothing: true) { close(store, transaction) }
        }
        return try body()
    }
    open()
    defer { close(store(), transaction()) }
    return try body()
}
