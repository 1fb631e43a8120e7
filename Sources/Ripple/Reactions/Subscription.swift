import _RippleRef

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
    // @unchecked: the field is guarded by the graph's lock. One field, in the subscription
    // itself: a reaction's subscription (most of them) is one small allocation.

    /// What the first cancellation stops, `nil` once it has: the reaction of a reaction's
    /// subscription, else a `_CancelAction` holding the closure to call. Either also keeps the
    /// subscription's ``_context``. Reached through the lock's token, `held[target: self]`.
    fileprivate var _target: AnyObject?

    /// A reaction's subscription, which cancels it.
    init(reaction: _ReactionNode) {
        _target = reaction
    }

    /// The reaction behind this subscription, while it is not cancelled.
    var _reactionNode: _Node? {
        _graph.withLock { held in held[target: self] as? _ReactionNode }
    }

    /// Creates a subscription that calls `onCancel` once, on the first ``cancel()`` or when released.
    ///
    /// `onCancel` runs like a cleanup: untracked, and owning nothing it creates.
    public init(_ onCancel: @escaping @Sendable () -> Void) {
        _target = _CancelAction(onCancel)
    }

    deinit {
        cancel()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool {
        _graph.withLock { held in held[target: self] == nil }
    }

    /// Stops the reaction or handler. Calling it again does nothing.
    ///
    /// When it returns, no new run of the reaction starts (a run another thread had begun
    /// before, even one whose body that thread has not entered yet, goes on), and if it was not
    /// running, its teardown is done: the reactions it created are cancelled, last created first, then its
    /// cleanups run, last registered first. If it is running, on another thread or because
    /// this is called from its own body, `cancel()` does not wait: the run goes on to its end,
    /// and the teardown happens then, on the thread that runs it.
    ///
    /// The teardown belongs to no one: whatever it reads is not a dependency of a reaction or
    /// computed value that calls `cancel()`, and what it creates does not belong to the caller.
    public func cancel() {
        // Taken out under the lock, and let go of after it.
        let (taken, insideDerivation) = _graph.withLock { held -> (AnyObject?, Bool) in
            (held[target: self].take(), _graph.state(held).evaluatingRef != nil)
        }
        guard let taken else { return }
        if let reaction = taken as? _ReactionNode {
            _runDetached(insideDerivation: insideDerivation) { reaction.cancel() }
        } else {
            _runDetached(insideDerivation: insideDerivation, _downcast(taken, to: _CancelAction.self).onCancel)
        }
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

/// The closure a ``Subscription`` created with one calls when cancelled.
final class _CancelAction: @unchecked Sendable {
    // @unchecked: `context` is guarded by the graph's lock.

    /// Called once, by the first cancellation.
    let onCancel: @Sendable () -> Void
    /// What the module that made the subscription attached to it (``Subscription/_context``),
    /// reached through the lock's token, `held[context: action]`. The action is 32 bytes
    /// without it, 40 with it, and glibc's malloc gives either a 48-byte chunk, so it costs no
    /// memory there.
    fileprivate var _context: AnyObject?

    /// Wraps the closure of ``Subscription/init(_:)``.
    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }
}

extension _HeldLock {
    /// What `subscription`'s first cancellation stops (see `Subscription._target`).
    subscript(target subscription: Subscription) -> AnyObject? {
        @inline(__always) get { subscription._target }
        @inline(__always) nonmutating _modify { yield &subscription._target }
    }

    /// The context a cancel action keeps for its subscription (see `_CancelAction._context`).
    subscript(context action: _CancelAction) -> AnyObject? {
        @inline(__always) get { action._context }
        @inline(__always) nonmutating set { action._context = newValue }
    }
}
