/// A stream of values pushed to subscribers: nothing is stored or replayed.
///
/// ``send(_:)`` reaches every subscriber synchronously, in subscription order. A value sent
/// from inside a subscriber (or a reaction) is queued and delivered after the current
/// delivery, so every subscriber sees every value in the order it was sent.
///
/// ```swift
/// let tapped = Event<Int>()
/// let subscription = tapped.subscribe { print("tapped", $0) }
/// tapped.send(1)   // prints "tapped 1"
/// ```
public final class Event<Value>: @unchecked Sendable {
    @exclusivity(unchecked) private var handlers: [(id: Int, handler: @Sendable (Value) -> Void)] = []
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
            handlers.append((nextID, handler))
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
                for entry in snapshot { entry.handler(value) }
            }
        }
    }

    private func remove(_ id: Int) {
        let removed = _graph.withLock { () -> (@Sendable (Value) -> Void)? in
            guard let index = handlers.firstIndex(where: { $0.id == id }) else { return nil }
            return handlers.remove(at: index).handler
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
