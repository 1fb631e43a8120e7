/// Something that owns the reactions created, and the cleanups registered, while it is
/// current (`_ThreadContext.owner`): a running reaction or a ``ReactionScope`` in `run`.
protocol _Owner: AnyObject, Sendable {
    /// Takes ownership of `child`; returns false if the owner is already cancelled.
    func _adopt(_ child: Subscription) -> Bool

    /// Registers `cleanup` to run at the owner's teardown; returns false if the owner is
    /// already cancelled (the caller then runs it at once).
    func _addCleanup(_ cleanup: @escaping @Sendable () -> Void) -> Bool
}

/// Tears down what an owner held, in the order of `defer`: cancels `children`, last created
/// first, then runs `cleanups`, last registered first, and empties both (so that the closures
/// are freed here, with the lock released: they may free user objects). Called with the lock
/// released.
///
/// The teardown may run inside someone else's body (a reaction that cancels another one, a
/// derivation that releases a subscription): see `_runDetached(insideDerivation:_:)`.
func _tearDown(
    children: inout [Subscription],
    cleanups: inout [@Sendable () -> Void],
    insideDerivation: Bool
) {
    if children.isEmpty, cleanups.isEmpty { return }
    let (ownedChildren, ownedCleanups) = (children, cleanups)
    children = []
    cleanups = []
    _runDetached(insideDerivation: insideDerivation) {
        for child in ownedChildren.reversed() { child.cancel() }
        for cleanup in ownedCleanups.reversed() { cleanup() }
    }
}

/// Runs `cleanup` at once, detached as a teardown runs it: for a cleanup registered on an owner
/// that is already cancelled (``onCleanup(_:)``, ``ReactionScope/onCleanup(_:)``). What it reads
/// is not a dependency of the caller, and what it creates does not belong to the caller.
func _runCleanupNow(_ cleanup: @Sendable () -> Void) {
    let insideDerivation = _graph.withLock { held in _graph.state(held).evaluatingRef != nil }
    _runDetached(insideDerivation: insideDerivation, cleanup)
}

/// Runs `body`, work that belongs to no one on the stack (a cleanup, a cancellation), detached
/// from whatever runs on this thread: nothing it reads becomes a dependency of the running
/// reaction or derivation, and nothing it creates belongs to the current owner.
///
/// `insideDerivation` is whether a derivation is being evaluated on this thread (the caller
/// read `_graph.evaluatingRef` with the lock held); only then is the derivation set aside, by
/// the public `untracked`, which takes the lock to do so. Otherwise this costs no lock.
func _runDetached(insideDerivation: Bool, _ body: () -> Void) {
    _ThreadContext.current.running(nil, ownedBy: nil) {
        if insideDerivation {
            untracked(body)
        } else {
            body()
        }
    }
}
