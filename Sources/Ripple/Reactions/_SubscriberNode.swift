import _RippleRef

/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _DerivedNode, @unchecked Sendable {
    /// Where the subscriber was created, or its name.
    private let storedOrigin: _OriginStorage
    /// Its whole lifecycle, in one word (lock held; see `_Lifecycle`): a reaction's runs, its
    /// mark, its queued jobs, its disposal and its holds; a watcher uses the last three. Kept
    /// here, where the delivery queue and the graph's liveness check reach it without knowing
    /// the node's kind. Only `_Lifecycle`'s transitions change it.
    ///
    /// The state of a run in progress is not kept here: which reads it recorded is the running
    /// thread's (`_ThreadContext.runTracking`), and the sources it replaced, rare, are in the
    /// graph's `replacedByRuns`.
    @exclusivity(unchecked) final var lifecycle: _Lifecycle

    init(kind: Kind, origin: _Origin, recordsWhy: Bool = false) {
        storedOrigin = _OriginStorage(origin)
        lifecycle = _Lifecycle(recordsWhy: recordsWhy)
        super.init(kind: kind)
    }

    override final func _origin() -> _Origin { storedOrigin.origin }

    /// Cancelled and unlinked from its sources (lock held).
    @inline(__always)
    final var isDisposed: Bool { lifecycle.isDisposed }

    /// Takes a reference to itself, as a transition of `lifecycle` asked (lock held: a retain
    /// runs no user code). With ``releaseHeldSelf()``, the only place a subscriber holds itself.
    @inline(__always)
    final func holdSelf() {
        _ = _Ref(self).retain()
    }

    /// Gives back the reference ``holdSelf()`` took (lock released: it may free the node and
    /// what it holds).
    @inline(__always)
    final func releaseHeldSelf() {
        _Ref(self).release()
    }
}
