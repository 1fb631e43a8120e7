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

extension Subscription {
    /// Adds the subscription to a set (DidUpdate's `add(to: &observers)` with a set): it lives
    /// as long as the set holds it.
    ///
    /// ```swift
    /// var observers: Set<Subscription> = []
    /// $model.count.didChange { print($0) }.add(to: &observers)
    /// ```
    public func add(to observers: inout Set<Subscription>) {
        observers.insert(self)
    }
}

extension Array where Element == Subscription {
    /// Appends the subscriptions a result builder lists (DidUpdate's `observers.add { … }`).
    ///
    /// ```swift
    /// var observers: [Subscription] = []
    /// observers.add {
    ///     $model.count.didChange { countLabel.text = "\($0)" }
    ///     $model.name.didUpdate { nameLabel.text = $0 }
    /// }
    /// ```
    public mutating func add(@SubscriptionBuilder _ subscriptions: () -> [Subscription]) {
        append(contentsOf: subscriptions())
    }
}

extension Set where Element == Subscription {
    /// Inserts the subscriptions a result builder lists.
    public mutating func add(@SubscriptionBuilder _ subscriptions: () -> [Subscription]) {
        formUnion(subscriptions())
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
