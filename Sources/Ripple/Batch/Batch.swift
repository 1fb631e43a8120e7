/// Runs `body` as one change: reactions run once, when the outermost batch ends.
///
/// Batches nest. Reads inside a batch see the latest writes (computed values are brought up
/// to date on demand). Reactions run when the outermost batch ends, even if `body` throws. A
/// value changed and changed back inside one batch triggers no reaction.
///
/// ```swift
/// batch {
///     isLoggedIn.value = true
///     hasClickedTip.value = true
/// }   // reactions run here, once
/// ```
///
/// Inside a reaction, a batch's writes are queued together and committed as one round after
/// the current one.
public func batch<R>(_ body: () throws -> R) rethrows -> R {
    // A guaranteed reference to the thread's context: the batch does no reference counting.
    try _ThreadContext.currentRef._withUnsafeGuaranteedRef { context in
        context.batchDepth += 1
        defer {
            context.batchDepth -= 1
            if context.isDelivering {
                // The outermost batch opened during this delivery ends: its writes are queued
                // as one unit.
                if context.batchDepth == context.deliveryBatchDepth, !context.deferredBatch.isEmpty {
                    let writes = context.deferredBatch
                    context.deferredBatch = []
                    context.deferred.append(_DeferredWrite(
                        apply: { for write in writes { write.apply() } },
                        origin: writes[0].origin
                    ))
                }
                if context.batchDepth == 0 { context.endBatch() }
            } else if context.batchDepth == 0 {
                // Every write of the batch, applied at once: readers see all or none of them.
                context.commitStaged()
                context.endBatch()
                _graphRef._withUnsafeGuaranteedRef { $0.deliver(context) }
            }
        }
        return try body()
    }
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
    let graph = _graph
    let context = _ThreadContext.current
    context.untrackedDepth += 1
    defer { context.untrackedDepth -= 1 }
    // Only the thread evaluating a derivation can find `evaluating` set once it holds the lock.
    graph.lock.lock()
    guard let evaluating = graph.evaluating else {
        graph.unlock()
        return try body()
    }
    graph.evaluating = nil
    let suspended = context.suspendedEvaluationRef
    context.suspendedEvaluationRef = Unmanaged.passUnretained(evaluating)
    defer {
        context.suspendedEvaluationRef = suspended
        graph.evaluating = evaluating
        graph.unlock()
    }
    return try body()
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
    if context.isDelivering {
        _graph.queueWrite(context) { batch(body) }
        return
    }
    batch(body)
}
