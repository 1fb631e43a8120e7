/// Internal: a node that reads others: a computed value, a reaction or an Observation watcher.
///
/// Adds to `_Node` what reading needs: the sources of the last evaluation (each edge holding
/// its source strongly, with the version seen). The state of an evaluation in progress is not
/// here: a computed value's is the graph's (`_Graph.evaluation`, saved on the stack of the
/// evaluation it interrupts), a reaction run's is its thread's (`_ThreadContext.runTracking`).
/// Every field is guarded by the graph's lock.
@usableFromInline
class _DerivedNode: _Node {
    /// What this node read in its last evaluation, with the version it saw.
    @exclusivity(unchecked) final var sources = _Buffer<_Edge>()

    // Each kind stores its origin after its own fields (see `_Node.origin`).

    deinit {
        #if RIPPLE_INVARIANTS
        // A link to a computed value holds no reference (see `_Link`): freeing one that is still
        // linked would leave its sources with a dangling link.
        if kind == .computed, hasObservers {
            _rippleFailure("internal invariant: \(debugLabel) freed while linked to its sources")
        }
        #endif
        if hasExternalSource { graphRef.object.dropExternalSource(of: self) }
        // Hand the sources to the release queue instead of releasing them here: a chain of
        // any length is then freed one node at a time, without deep recursion.
        guard !sources.isEmpty else { return }
        _releaseLater(sources.take())
    }
}

/// The state of one evaluation or run in progress: which reads it already recorded.
struct _Tracking {
    /// The id of the evaluation in progress (0 when idle): a source whose `trackedBy` holds it
    /// was already recorded.
    var id = 0
    /// The edges recorded so far: a prefix of the node's `sources`.
    var count = 0
}
