/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _DerivedNode, @unchecked Sendable {
    /// The run in progress: its id and the edges it recorded so far. A run spans several
    /// acquisitions of the lock (it reads with the lock released between reads), and runs of
    /// different subscribers interleave on different threads, so each keeps its own.
    @exclusivity(unchecked) final var tracking = _Tracking()
    /// Sources the run in progress replaced while the subscriber was live, unsubscribed when the
    /// run ends (their links name them by `~index`).
    @exclusivity(unchecked) final var replacedSources = _Buffer<_Edge>()
    /// Disposal and queued jobs (lock held; see `_SubscriberStateMachine`). Kept here, where the
    /// delivery queue and the graph's liveness check reach it without knowing the node's kind
    /// (last, so that a subclass's small fields may share its word);
    /// a reaction's run state extends it (see `_ReactionNode.state`).
    @exclusivity(unchecked) final var subscriber = _SubscriberStateMachine()

    /// Cancelled and unlinked from its sources (lock held).
    @inline(__always)
    final var isDisposed: Bool { subscriber.isDisposed }
}
