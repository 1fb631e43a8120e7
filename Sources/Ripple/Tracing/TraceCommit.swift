/// Runs `body`, a commit of a store built on Ripple, and tells the tracers about it with the
/// reactions that ran on this thread because of it (RippleStore's `commit` calls it).
///
/// Inside a reaction, where writes are queued after the current round, the commit is traced
/// once the reactions its writes woke have run. Inside a ``batch(_:)``, whose writes are
/// applied when it ends, it is traced once the batch is applied and its reactions have run,
/// naming every reaction they ran (those of the batch's other writes too).
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
    // Without the lock: a tracer installed by another thread meanwhile may miss this commit,
    // as it would have missed it a moment earlier.
    guard _graph.hasTracersInstalled else { return try body() }
    let context = _ThreadContext.current
    // The commit counts the reactions run on this thread from `open` to `close`, then is traced.
    let open = { context.wokeReactions.append([]) }
    let close = { (store: String, transaction: String) in
        let event = _PendingTrace.commit(
            store: store, transaction: transaction, woke: context.wokeReactions.removeLast())
        _graph.withLock { held in _graph.recordTrace(event, context, held) }
    }
    if context.writes.batchDepth > 0 {
        // Inside a batch, the commit's writes are applied, and the reactions they wake run,
        // when the batch is: the commit waits for that (`_ThreadContext.batchCommits`). Inside a
        // reaction, where the batch's writes are queued as one unit, it waits from a step queued
        // with them, applied with them (and not a round toward a runaway loop).
        defer {
            let commit = (store: store(), transaction: transaction())
            if context.writes.isDelivering {
                _graph.queueWrite(context, writesNothing: true) { context.batchCommits.append(commit) }
            } else {
                context.batchCommits.append(commit)
            }
        }
        return try body()
    }
    if context.writes.isDelivering {
        // Inside a reaction (a delivery on this thread), the commit's writes are queued after
        // the current round, and the reactions they wake run in the rounds that follow: the
        // count starts in a write queued before the commit's, and the commit is recorded, with
        // them, in one queued after. Neither counts as a round toward a runaway loop
        // (`writesNothing`).
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

extension _ThreadContext {
    /// Runs `apply`, which applies the outermost batch and delivers its reactions (lock
    /// released, not delivering), then records the commits traced inside the batch, each
    /// naming the reactions that ran meanwhile.
    @inline(never)
    func tracingBatchCommits(_ apply: () -> Void) {
        let commits = batchCommits
        batchCommits = []
        wokeReactions.append([])
        apply()
        recordBatchCommits(commits, woke: wokeReactions.removeLast())
    }

    /// In a delivery, after a round's writes were applied (`_Graph.deliverQueued`): records the
    /// commits traced among them once the reactions the round queued have run, in a step
    /// queued before any other write (it writes nothing and is not a round).
    func traceBatchCommitsAfterNextJobs() {
        let commits = batchCommits
        batchCommits = []
        wokeReactions.append([])
        let record = _DeferredWrite(
            apply: { self.recordBatchCommits(commits, woke: self.wokeReactions.removeLast()) }, reaction: nil,
            writesNothing: true)
        writes.queueFirst(record)
    }

    /// Records `commits`, each naming `woke` (lock released).
    private func recordBatchCommits(_ commits: [(store: String, transaction: String)], woke: [String]) {
        _graph.withLock { held in
            for commit in commits {
                _graph.recordTrace(
                    .commit(store: commit.store, transaction: commit.transaction, woke: woke), self, held)
            }
        }
    }
}
