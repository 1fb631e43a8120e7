import Ripple

/// Handlers called in the order they were added, outside the lock, from a snapshot: one that
/// is removed while a call is in progress may still get that call.
final class _HandlerList<Argument>: @unchecked Sendable {
    private let lock = _Lock()
    private var handlers: [(id: UInt64, handler: @Sendable (Argument) -> Void)] = []
    private var nextID: UInt64 = 0

    /// Adds `handler`. Added inside a reaction's body or a `ReactionScope`'s `run { }`, the
    /// subscription belongs to that owner, as `Stored.willChange`'s does (and nothing is added
    /// when the owner is cancelled already).
    func add(_ handler: @escaping @Sendable (Argument) -> Void) -> Subscription {
        let id = lock.withLock { () -> UInt64 in
            nextID &+= 1
            return nextID
        }
        let subscription = Subscription { [weak self] in
            self?.lock.withLock { self?.handlers.removeAll { $0.id == id } }
        }
        guard _adoptByCurrentOwner(subscription) else { return subscription }
        lock.withLock { handlers.append((id, handler)) }
        return subscription
    }

    var isEmpty: Bool { lock.withLock { handlers.isEmpty } }

    func call(_ argument: Argument) {
        let snapshot = lock.withLock { handlers }
        for entry in snapshot { entry.handler(argument) }
    }
}
