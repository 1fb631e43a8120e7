import _RippleRef

/// Runs `body` as one change: every read on another thread sees all of its writes or none,
/// and reactions run once, when the outermost batch ends.
///
/// Batches nest. The writes are applied to the graph together when the outermost batch ends,
/// even if `body` throws: until then, reads on other threads see none of them, and no computed
/// value is ever derived from a mix of old and new values. Reads inside the batch, on its
/// thread, see its latest writes: a ``Stored`` reads as written, and a ``Computed`` that
/// depends on a written value is evaluated in the batch's view, on demand (that value is not
/// cached in the graph; it is kept until the batch's next write). A value changed and changed
/// back inside one batch triggers no reaction. A reaction started inside the batch sees the
/// batch's view, and runs again after the batch only if the batch commits something other
/// than what it saw: a ``Stored`` it read as the batch last wrote it does not run it again,
/// one the batch wrote again after the read does (even back to the value before the batch,
/// which runs no other reaction). A ``Computed`` it read in the batch's view, one of whose
/// sources the batch wrote, runs it again once the batch is applied, whatever the computed
/// value then: with the value it saw if that did not change (a known issue), never left with
/// one the batch did not commit. When batches on two threads write the same value, the one
/// that ends last wins.
///
/// `body` runs without holding any lock: it may block, wait for other threads (which keep
/// reading and writing meanwhile), or hop to the main thread and back.
///
/// Each read is atomic, not a sequence of them: two reads on another thread (two in a
/// reaction's run, or in a batch of reads) may fall on both sides of this batch's commit. A
/// ``Computed`` that reads both values always sees all of the batch or none (a known issue of
/// reactions, see ``observe(file:line:_:)``).
///
/// ```swift
/// batch {
///     isLoggedIn.value = true
///     hasClickedTip.value = true
/// }   // both applied here, at once; reactions run here, once
/// ```
///
/// Inside a reaction, a batch's writes are queued together and committed as one round after
/// the current one, also all at once for other threads.
///
/// - Complexity: A write inside a batch is O(1) (amortized), plus one acquisition of the
///   graph's lock; on the batching thread, reading a written ``Stored`` is O(1). The first
///   read of a ``Computed`` after a write walks the sources the value recorded when it was last
///   evaluated (once per node, until the next write or a change from another thread) and
///   re-evaluates the computed values that a write reaches. When the outermost batch ends,
///   each written value is applied once, as a plain write would be, under one acquisition of
///   the lock. Code that does not batch pays nothing for this but one comparison per read.
@inlinable
public func batch<R>(_ body: () throws -> R) rethrows -> R {
    // Inlinable, so that `body` is inlined where the batch is written: the batch itself costs
    // a depth count and one call at its end. A guaranteed reference to the thread's context:
    // no reference counting.
    let context = _ThreadContext.currentRef
    context.with { $0.writes.beginBatch() }
    defer { context.with { _endBatch($0) } }
    return try body()
}

/// Ends a batch on the calling thread: commits it if it is the outermost (see ``batch(_:)``).
@usableFromInline
func _endBatch(_ context: _ThreadContext) {
    guard context.writes.endBatch() == .commit else { return }
    // Commits traced inside the batch are recorded once it is applied and its reactions have
    // run, naming them (see `traceCommit`).
    guard context.batchCommits.isEmpty else {
        context.tracingBatchCommits { _commitOutermostBatch(context) }
        return
    }
    _commitOutermostBatch(context)
}

/// Applies the outermost batch that ended on the calling thread, outside any delivery, then
/// delivers what it queued.
@inline(__always)
private func _commitOutermostBatch(_ context: _ThreadContext) {
    guard !context.commitSoleWriteAsWrite() else { return }
    // Every write of the batch, applied at once: readers see all or none of them. The
    // reactions they trigger run under the same acquisition of the lock. (A batch of one
    // write was committed above, as that write.)
    context.commitStaged(runningJobs: true)
    // No graph yet: no node, so nothing to deliver.
    _createdGraphRef?.with { $0.deliver(context) }
}

/// Runs `body` without recording what it reads as a dependency of the current derivation
/// or reaction.
///
/// ```swift
/// observe {
///     let name = user.value
///     let count = untracked { visits.value }   // changes of visits do not re-run this
///     print(name, count)
/// }
/// ```
public func untracked<R>(_ body: () throws -> R) rethrows -> R {
    // The context reached unretained (the thread keeps it alive): `_ThreadContext.current`
    // cost a retain and a release on every call.
    try _ThreadContext.currentRef.with { context in try untracked(in: context, body) }
}

/// ``untracked(_:)`` on the calling thread, whose `context` the caller found.
func untracked<R>(in context: _ThreadContext, _ body: () throws -> R) rethrows -> R {
    context.untrackedDepth += 1
    defer { context.untrackedDepth -= 1 }
    // The common case first, the graph reached unretained: outside any Observation scope, on a
    // thread that holds no lock, so evaluates nothing (see `untrackedBody`). The global
    // `_graph` costs a retain and a release, on an object every thread shares.
    if context.observationScopeRef == nil, !_graphRef.with({ $0.isLockHeldByCallingThread() }) {
        return try body()
    }
    let graph = _graph
    // Inside `tracked { }`, Observation records every registered read: Ripple reads made here
    // must not register (see `_Graph.readsHidden`).
    if context.observationScopeRef != nil {
        graph.hideReadsFromObservation(context)
        defer { graph.showReadsToObservation(context) }
        return try untrackedBody(graph, body)
    }
    return try untrackedBody(graph, body)
}

/// `untracked`'s body: suspends the derivation that runs on this thread, if any.
private func untrackedBody<R>(_ graph: _Graph, _ body: () throws -> R) rethrows -> R {
    // Only the thread evaluating a derivation can find `evaluating` set once it holds the lock,
    // and a derivation runs with its thread holding the lock: a thread that does not hold it
    // evaluates nothing (the common case, a store's delivery among them), and `body` runs
    // without an acquisition of the lock (about 100 instructions).
    if !graph.isLockHeldByCallingThread() { return try body() }
    let held = graph.takeLock()
    let state = graph.state(held)
    guard let evaluating = state.evaluating else {
        held.release(graph)
        return try body()
    }
    // Still evaluating (the lock stays held for `body`): a write inside `body` must fail like
    // any write in a derivation, and reads inside a batch still see committed values.
    let suspended = state.suspendedEvaluatingRef
    state.suspendedEvaluatingRef = state.evaluatingRef
    state.evaluating = nil
    let result: R
    do {
        result = try body()
    } catch {
        state.evaluating = evaluating
        state.suspendedEvaluatingRef = suspended
        held.release(graph)
        throw error
    }
    state.evaluating = evaluating
    state.suspendedEvaluatingRef = suspended
    held.release(graph)
    return result
}

/// Runs `body`, a read-modify-write of reactive values, in write order: at once outside
/// reactions; inside a reaction (or a change handler), queued after the current round like a
/// plain write, so that what it reads is the value committed before it.
///
/// Use it when the write goes through code you do not control (a property setter with a
/// `didSet`, a binding) and must not be computed from a stale read:
///
/// ```swift
/// observe {
///     if tapped.value {
///         writeInOrder { model.count += 1 }   // reads the committed count when it runs
///         writeInOrder { model.count += 1 }   // and this one sees the first one's result
///     }
/// }
/// ```
///
/// The writes in `body` are committed together, as one ``batch(_:)``.
public func writeInOrder(_ body: @escaping () -> Void) {
    let context = _ThreadContext.current
    if context.writes.route == .queue {
        _graph.queueWrite(context) { batch(body) }
        return
    }
    batch(body)
}
