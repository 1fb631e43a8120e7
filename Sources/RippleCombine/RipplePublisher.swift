import Ripple

/// A Combine publisher of a Ripple source: a value (its current value, then each change), a
/// store's states or changes, an event's or a store's activities.
///
/// Each subscriber gets a reaction (or event subscription) of its own, started by its first
/// demand and ended when it cancels. It never fails. A publisher of a store (its states,
/// changes or activities) does not keep the store alive, and finishes when the store is
/// released: the subscriber gets the values kept for it (as its demand allows), then
/// `.finished`; subscribed after the release, it gets `.finished` at once. Other publishers
/// never finish.
///
/// ```swift
/// let count = Stored(0)
/// let cancellable = count.publisher
///     .map { "\($0) items" }
///     .sink { print($0) }          // prints "0 items", then one line per change
/// ```
///
/// While a subscriber has no demand left, a publisher of values keeps the newest value only
/// (a UI wants the latest state), and a publisher of events, changes and activities keeps
/// every one, in order, until it is requested.
public struct RipplePublisher<Output: Sendable>: Publisher, Sendable {
    /// Never fails.
    public typealias Failure = Never

    /// What the publisher keeps for a subscriber with no demand left.
    enum Buffering: Sendable {
        case newest
        case all
    }

    /// Starts sending: called at a subscriber's first demand with the functions that send a
    /// value and that finish, returns the subscription to cancel when the subscriber cancels.
    typealias Start =
        @Sendable (
            _ send: @escaping @Sendable (Output) -> Void,
            _ finish: @escaping @Sendable () -> Void
        ) -> Ripple.Subscription

    let buffering: Buffering
    let start: Start
    /// `nil` for a publisher that finishes only through `start`'s function, or never.
    let watch: _PublisherWatch?

    /// Creates a publisher of what `start` sends: it is called at a subscriber's first demand
    /// with the function that sends a value, and returns the subscription to cancel when the
    /// subscriber cancels.
    ///
    /// - Parameters:
    ///   - keepsEveryValue: Whether a subscriber with no demand left gets every value later
    ///     (events) or only the newest (states).
    ///   - start: Starts sending.
    public init(
        keepsEveryValue: Bool = false,
        start: @escaping @Sendable (_ send: @escaping @Sendable (Output) -> Void) -> Ripple.Subscription
    ) {
        buffering = keepsEveryValue ? .all : .newest
        self.start = { send, _ in start(send) }
        watch = nil
    }

    /// Creates a publisher that may finish: `start` is given the function that sends a value
    /// and the one that finishes (after the values kept for the subscriber); `watch`, called
    /// when a subscriber attaches, finishes it before its first demand too.
    init(keepsEveryValue: Bool = false, finishing start: @escaping Start, watch: _PublisherWatch? = nil) {
        buffering = keepsEveryValue ? .all : .newest
        self.start = start
        self.watch = watch
    }

    /// Attaches `subscriber`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = _PublisherSubscription(AnySubscriber(subscriber), buffering: buffering, start: start)
        subscriber.receive(subscription: subscription)
        if let watch { subscription.watch(watch) }
    }
}

/// Watches a publisher's source for its end from the moment a subscriber attaches, before any
/// demand: called then with the function that finishes the subscriber, returns the
/// subscription to cancel when the subscriber cancels or completes.
typealias _PublisherWatch = @Sendable (_ finish: @escaping @Sendable () -> Void) -> Ripple.Subscription
