import Ripple

extension Subscription {
    /// Appends the subscription to `observers`; it stays active while the array holds it.
    ///
    /// ```swift
    /// var observers: [Subscription] = []
    /// $model.count.didChange { print($0) }.add(to: &observers)
    /// ```
    public func add(to observers: inout [Subscription]) {
        observers.append(self)
    }

    /// Puts the subscription in `bag`; it is cancelled with the bag.
    public func add(to bag: SubscriptionBag) {
        bag.insert(self)
    }
}

extension SubscriptionBag {
    /// Creates a bag holding every subscription the builder lists.
    ///
    /// ```swift
    /// let observers = SubscriptionBag {
    ///     $model.count.didChange { print($0) }
    ///     $model.name.didUpdate { print($0) }
    /// }
    /// ```
    public convenience init(@SubscriptionBuilder _ subscriptions: () -> [Subscription]) {
        self.init()
        insert(subscriptions)
    }

    /// Adds every subscription the builder lists; they are cancelled with the bag.
    public func insert(@SubscriptionBuilder _ subscriptions: () -> [Subscription]) {
        for subscription in subscriptions() { insert(subscription) }
    }
}
