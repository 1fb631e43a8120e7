import _RippleRef

/// The graph's state that only the thread holding its lock may touch, reachable only through
/// an acquisition: `graph.state(held)`, where `held` is the acquisition's token
/// (``_HeldLock``), handed to the function that needs it or by `graph.withLock { held in … }`.
/// A function that needs one of these fields says so in its signature, by taking the token;
/// no comment saying "lock held" stands in for it. (`guarded`, the graph's reference to it, is
/// private to `_Graph.swift`, where only `state(_:)` and `withLock(_:)` read it.)
///
/// A class, made once with the graph and kept for the life of the process: reaching it is one
/// load, and handing it on costs no reference counting once inlined.
///
/// So far it holds what reactions keep to say why they run. The graph's other guarded fields
/// (the walks' stacks, the evaluation in progress, the run snapshots, the staging counts,
/// the references released after the lock) are still declared on ``_Graph``, each with a
/// comment saying the lock guards it, and so are the nodes' fields.
final class _GraphState {
    /// The values each reaction that records why it runs saw at its last run, by source (see
    /// `whyDidThisRun()`).
    var whySnapshots: [ObjectIdentifier: [ObjectIdentifier: Any]] = [:]
    /// The versions of the sources of each recording reaction's last run, noted when its next
    /// run starts (see `_ReactionNode.recordRunStart`).
    var whyBaselines: [ObjectIdentifier: [(source: _Ref<_Node>, version: Int)]] = [:]
    /// The changes that started each recording reaction's current run, with its name.
    var whyChanges: [ObjectIdentifier: (name: String?, changes: [_PendingSourceChange])] = [:]
}
