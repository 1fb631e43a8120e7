extension Event where Value: Sendable {
    /// Calls `handler` on the main actor with every value sent from now on, in the order they
    /// were sent, until the subscription ends: ``subscribe(_:)`` for main-actor code (a
    /// control's events handled by a main-actor view model).
    ///
    /// A value sent on the main actor is handled before ``send(_:)`` returns, as with
    /// ``subscribe(_:)``; one sent from another thread is handled on the main actor's next
    /// turn, after the values sent before it. Once the subscription ends, values still on their
    /// way to the main actor are dropped.
    ///
    /// ```swift
    /// let taps = loginButton.tap.subscribeOnMainActor { _ in model.logIn() }
    /// ```
    ///
    /// Owned like ``subscribe(_:)``: subscribed inside a reaction's body or a
    /// ``ReactionScope``'s `run { }`, the subscription belongs to that owner.
    ///
    /// - Parameter handler: Called on the main actor with each value.
    /// - Returns: A ``Subscription`` that removes the handler when cancelled or released.
    /// - Complexity: As ``subscribe(_:)``, plus O(1) per value sent from another thread.
    public func subscribeOnMainActor(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        let relay = _MainActorRelay(handler)
        // Ended with the subscription: the values it queued are dropped, also when the handler
        // ends it during a drain.
        return subscribe({ value in relay.deliver(value) }, onEnd: { relay.end() })
    }
}
