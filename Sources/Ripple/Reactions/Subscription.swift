/// A handle that keeps a reaction or handler alive; cancelling or releasing it stops it.
///
/// Every reaction and handler in Ripple returns a `Subscription`. Keep it for as long as
/// the reaction should run, collect it in a ``SubscriptionBag``, or let a ``ReactionScope``
/// or an enclosing reaction own it.
///
/// ```swift
/// let subscription = observe { print(count.value) }
/// subscription.cancel()   // or just let it go
/// ```
public final class Subscription: Sendable, Hashable {
    private let state: _State

    private final class _State: @unchecked Sendable {
        var onCancel: (@Sendable () -> Void)?
        init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    }

    /// Creates a subscription that calls `onCancel` once, on the first ``cancel()`` or when released.
    public init(_ onCancel: @escaping @Sendable () -> Void) {
        state = _State(onCancel)
    }

    deinit {
        cancel()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool {
        _graph.withLock { state.onCancel == nil }
    }

    /// Stops the reaction or handler; its cleanups run now. Calling it again does nothing.
    public func cancel() {
        let onCancel = _graph.withLock {
            let taken = state.onCancel
            state.onCancel = nil
            return taken
        }
        onCancel?()
    }

    /// Hands the subscription to `bag`, which cancels it when the bag is released.
    public func store(in bag: SubscriptionBag) {
        bag.insert(self)
    }

    /// Identity equality.
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

    /// Identity hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
