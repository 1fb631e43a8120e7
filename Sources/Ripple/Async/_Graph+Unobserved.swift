extension _Graph {
    /// Runs the handler of `node`, which just lost its last live observer, once the lock is
    /// released: it calls user code (a task's cancellation handler).
    @inline(never)
    func noteUnobserved(_ node: _Node, _ held: borrowing _HeldLock) {
        guard let handler = state(held).unobservedHandlers[ObjectIdentifier(node)] else { return }
        keepUntilUnlock(_RunOnRelease(handler))
    }

    /// Registers `handler` for `node`, and flags it.
    func onUnobserved(_ node: _Node, _ held: borrowing _HeldLock, _ handler: @escaping @Sendable () -> Void) {
        state(held).unobservedHandlers[ObjectIdentifier(node)] = handler
        node.notifiesWhenUnobserved = true
    }

    /// Drops `node`'s handler.
    func removeUnobservedHandler(of node: _Node, _ held: borrowing _HeldLock) {
        node.notifiesWhenUnobserved = false
        state(held).unobservedHandlers[ObjectIdentifier(node)] = nil
    }
}

/// Runs `action` when released: work that must wait until the graph's lock is released,
/// handed to `_Graph.keepUntilUnlock` (released on the thread that held the lock, after its
/// outermost release).
final class _RunOnRelease {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}
