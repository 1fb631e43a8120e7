import Ripple
import RippleModels

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with the old and the new value after every update, and, when
    /// `options` ask for it, at once with `nil` and the current value (Fisticuffs'
    /// `subscribe`).
    ///
    /// ```swift
    /// let name = Stored("")
    /// let subscription = name.subscribe(.notifyingOnSubscription) { old, new in
    ///     print(old ?? "(none)", "→", new)       // prints "(none) → "
    /// }
    /// name.value = "Ada"                          // prints " → Ada"
    /// ```
    ///
    /// An update is a write, even of an equal value, as for `didUpdate`; a `Computed`'s
    /// updates are its changes. The handler runs after the update, with the graph consistent;
    /// for a call before an assignment, see ``WritableComputed/willChange(_:)`` and
    /// ``ObservableArray/willChange(_:)``.
    ///
    /// - Parameters:
    ///   - options: Whether to call the handler at once too.
    ///   - handler: Called with the value before the update (`nil` for the call on
    ///     subscription) and after it.
    /// - Returns: A subscription that stops the handler when cancelled or released.
    public func subscribe(
        _ options: SubscriptionOptions = .afterChange,
        _ handler: @escaping @Sendable (_ old: Value?, _ new: Value) -> Void
    ) -> Subscription {
        guard options.notifyOnSubscription else {
            return didUpdate { old, new in handler(old, new) }
        }
        let isFirst = _Box(true)
        return didUpdate(withCurrent: true) { old, new in
            handler(isFirst.exchange(false) ? nil : old, new)
        }
    }

    /// Calls `handler` with the old and the new value after every update, through
    /// `scheduler`: on the main actor, on an actor, or on a queue of your own (Fisticuffs'
    /// `subscribe` with a `Scheduler`).
    ///
    /// ```swift
    /// let status = Stored("idle")
    /// let subscription = status.subscribe(on: .mainActor) { old, new in
    ///     statusLabel.text = new                  // on the main actor
    /// }
    /// ```
    ///
    /// The handler gets every call ``subscribe(_:_:)`` would make, in the same order, one call
    /// at a time; none is dropped or merged on the way to the scheduler (unlike a binding,
    /// which shows only the newest value). As with `subscribe(_:_:)`, writes racing on other
    /// threads may reach the subscription as one update.
    /// With ``BindingScheduler/mainActor`` the handler runs at once when the update was made
    /// on the main actor and nothing is still waiting, otherwise from a main-actor task. With
    /// ``SubscriptionOptions/notifyingOnSubscription``, the first call (`nil` and the current
    /// value) goes through the scheduler too.
    ///
    /// Cancelling the subscription stops the handler at once: updates still waiting for the
    /// scheduler are dropped.
    ///
    /// - Parameters:
    ///   - scheduler: Where the handler runs.
    ///   - options: Whether to call the handler with the current value too.
    ///   - handler: Called with the value before the update (`nil` for the call on
    ///     subscription) and after it.
    /// - Returns: A subscription that stops the handler when cancelled or released.
    /// - Complexity: O(1) per update; updates waiting for the scheduler are kept until it runs.
    public func subscribe(
        on scheduler: BindingScheduler,
        _ options: SubscriptionOptions = .afterChange,
        _ handler: @escaping @Sendable (_ old: Value?, _ new: Value) -> Void
    ) -> Subscription where Value: Sendable {
        let delivery = _InOrder<(Value?, Value)>(scheduler: scheduler) { handler($0.0, $0.1) }
        let updates = subscribe(options) { old, new in delivery.send((old, new)) }
        return Subscription {
            delivery.stop()
            updates.cancel()
        }
    }
}
