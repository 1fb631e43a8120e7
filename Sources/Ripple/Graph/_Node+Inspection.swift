#if RIPPLE_INVARIANTS
// What tests read of a node's graph state, each read taking the graph's lock (the caller must
// not hold it): the fields themselves are reached only with an acquisition
// (`held[isStale: node]`, see `_Node.swift`). Compiled with the invariant checks, which every
// test build has.

extension _Node {
    /// Tests: the number of live links to this node, read under the graph's lock.
    final var observerCountForTesting: Int { _graph.withLock { held in held[observerCount: self] } }

    /// Tests: whether anything live observes this node, read under the graph's lock.
    final var hasObserversForTesting: Bool { _graph.withLock { held in held[hasObservers: self] } }
}

extension _DerivedNode {
    /// Tests: the number of sources this node read in its last evaluation, read under the
    /// graph's lock.
    final var sourceCountForTesting: Int { _graph.withLock { held in held[sources: self].count } }
}
#endif
