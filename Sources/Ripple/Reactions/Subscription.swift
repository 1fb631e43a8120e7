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
public final class Subscription: @unchecked Sendable, Hashable {
    // @unchecked: both fields are guarded by the graph's lock. Kept in the subscription itself
    // (not in a separate state object): one allocation per subscription.

    /// Called once by the first cancellation (lock held to touch).
    private var onCancel: (@Sendable () -> Void)?
    /// The reaction, for a reaction's subscription (lock held to touch).
    private var reaction: _Node?

    /// A reaction's subscription, which cancels it.
    init(reaction: _ReactionNode) {
        onCancel = { reaction.cancel() }
        self.reaction = reaction
    }

    /// The reaction behind this subscription, while it is not cancelled.
    var _reactionNode: _Node? {
        _graph.withLock { onCancel == nil ? nil : reaction }
    }

    /// Creates a subscription that calls `onCancel` once, on the first ``cancel()`` or when released.
    ///
    /// `onCancel` runs like a cleanup: untracked, and owning nothing it creates.
    public init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    deinit {
        cancel()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool {
        _graph.withLock { onCancel == nil }
    }

    /// Stops the reaction or handler. Calling it again does nothing.
    ///
    /// When it returns, no new run of the reaction starts, and if it was not running, its
    /// teardown is done: the reactions it created are cancelled, last created first, then its
    /// cleanups run, last registered first. If it is running, on another thread or because
    /// this is called from its own body, `cancel()` does not wait: the run goes on to its end,
    /// and the teardown happens then, on the thread that runs it.
    ///
    /// The teardown belongs to no one: whatever it reads is not a dependency of a reaction or
    /// computed value that calls `cancel()`, and what it creates does not belong to the caller.
    public func cancel() {
        // The reaction is taken out with the closure and let go of with it, after the lock.
        let (taken, takenReaction, insideDerivation) = _graph.withLock { () -> ((@Sendable () -> Void)?, _Node?, Bool) in
            let taken = self.onCancel
            self.onCancel = nil
            return (taken, self.reaction.take(), _graph.evaluatingRef != nil)
        }
        defer { withExtendedLifetime(takenReaction) {} }
        guard let taken else { return }
        _runDetached(insideDerivation: insideDerivation, taken)
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
