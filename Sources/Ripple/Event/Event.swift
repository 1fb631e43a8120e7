import Synchronization

/// A stream of values pushed to subscribers: nothing is stored or replayed.
///
/// ``send(_:)`` reaches every subscriber synchronously, in subscription order. A value sent
/// from inside a subscriber (or a reaction) is queued and delivered after the current
/// delivery, so every subscriber sees every value in the order it was sent. A subscriber
/// that subscribes during a delivery receives the values sent after it; one cancelled during
/// a delivery (by an earlier subscriber) is not called again, not even with that value.
///
/// ```swift
/// let tapped = Event<Int>()
/// let subscription = tapped.subscribe { print("tapped", $0) }
/// tapped.send(1)   // prints "tapped 1"
/// ```
public final class Event<Value>: @unchecked Sendable {
    @exclusivity(unchecked) private var handlers: [_EventHandler<Value>] = []
    @exclusivity(unchecked) private var nextID = 0

    /// Creates an event with no subscribers.
    public init() {}

    /// Calls `handler` with every value sent from now on, until the subscription ends.
    ///
    /// `handler` does not own what it creates: a reaction started inside it runs as long as
    /// its own subscription, even if the value was sent inside a reaction or a
    /// ``ReactionScope``'s `run { }`.
    ///
    /// - Returns: A ``Subscription`` that removes the handler when cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription where Value: Sendable {
        let id = _graph.withLock {
            nextID += 1
            handlers.append(_EventHandler(id: nextID, handler: handler))
            return nextID
        }
        return Subscription { [weak self] in self?.remove(id) }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int {
        _graph.withLock { handlers.count }
    }

    /// Delivers `value` to every current subscriber, in subscription order.
    ///
    /// - Complexity: O(*n*) in the number of subscribers.
    public func send(_ value: Value) {
        let context = _ThreadContext.current
        if context.isDelivering {
            _graph.queueWrite(context) { [self] in self.deliver(value, context) }
            return
        }
        deliver(value, context)
    }

    private func deliver(_ value: Value, _ context: _ThreadContext) {
        let snapshot = _graph.withLock { handlers }
        _graph.delivering(context) {
            withoutOwner {
                // A subscriber an earlier one cancelled is skipped (see `_EventHandler`).
                for entry in snapshot where entry.isActive.load(ordering: .acquiring) { entry.handler(value) }
            }
        }
    }

    private func remove(_ id: Int) {
        let removed = _graph.withLock { () -> (@Sendable (Value) -> Void)? in
            guard let index = handlers.firstIndex(where: { $0.id == id }) else { return nil }
            let entry = handlers.remove(at: index)
            entry.isActive.store(false, ordering: .releasing)
            return entry.handler
        }
        _ = removed  // released here, with the lock released: it may free user objects
    }
}

extension Event where Value == Void {
    /// Delivers an event that carries no value.
    public func send() {
        send(())
    }
}

/// A subscriber of an ``Event``: its handler, and whether its subscription is still active.
/// A delivery calls the subscribers the event had when it started (taken under the lock,
/// called with the lock released); one cancelled meanwhile, by an earlier subscriber of the
/// same delivery or by another thread, is skipped from then on.
final class _EventHandler<Value>: Sendable {
    let id: Int
    let handler: @Sendable (Value) -> Void
    /// Cleared when the subscription ends.
    let isActive = Atomic<Bool>(true)

    init(id: Int, handler: @escaping @Sendable (Value) -> Void) {
        self.id = id
        self.handler = handler
    }
}
