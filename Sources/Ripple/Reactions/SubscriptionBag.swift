/// An owner of subscriptions that cancels everything it holds when it is released.
///
/// Give an object a bag and store its reactions in it; they stop with the object, the last
/// inserted first (the order of `defer`, and of a ``ReactionScope``).
///
/// ```swift
/// final class TipController {
///     let bag = SubscriptionBag()
///     init(model: Model) {
///         observe { print(model.isTipHidden.value) }.store(in: bag)
///     }
/// }
/// ```
public final class SubscriptionBag: Sendable {
    private let state = _State()

    private final class _State: @unchecked Sendable {
        var subscriptions: [Subscription] = []
    }

    /// Creates an empty bag.
    public init() {}

    deinit {
        cancelAll()
    }

    /// Adds a subscription; it is cancelled with the bag.
    public func insert(_ subscription: Subscription) {
        _graph.withLock { state.subscriptions.append(subscription) }
    }

    /// The number of subscriptions held.
    public var count: Int {
        _graph.withLock { state.subscriptions.count }
    }

    /// Cancels and drops everything the bag holds, the last inserted first; the bag can be
    /// used again.
    public func cancelAll() {
        let taken = _graph.withLock {
            let taken = state.subscriptions
            state.subscriptions = []
            return taken
        }
        for subscription in taken.reversed() { subscription.cancel() }
    }
}
