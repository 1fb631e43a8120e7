/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _DerivedNode, @unchecked Sendable {
    /// Where the subscriber was created, or its name. Before `subscriber`, so that the small
    /// fields of a reaction fill the word in which `subscriber` (9 bytes) ends.
    private let storedOrigin: _OriginStorage
    /// Disposal and queued jobs (lock held; see `_SubscriberStateMachine`). Kept here, where the
    /// delivery queue and the graph's liveness check reach it without knowing the node's kind;
    /// a reaction's run state extends it (see `_ReactionNode.state`).
    ///
    /// The state of a run in progress is not kept here: which reads it recorded is the running
    /// thread's (`_ThreadContext.runTracking`), and the sources it replaced, rare, are in the
    /// graph's `replacedByRuns`.
    @exclusivity(unchecked) final var subscriber = _SubscriberStateMachine()

    init(kind: Kind, origin: _Origin) {
        storedOrigin = _OriginStorage(origin)
        super.init(kind: kind)
    }

    override final func _origin() -> _Origin { storedOrigin.origin }

    /// Cancelled and unlinked from its sources (lock held).
    @inline(__always)
    final var isDisposed: Bool { subscriber.isDisposed }
}
