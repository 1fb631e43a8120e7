import Ripple

extension Subscription {
    /// Hands this subscription to the store it comes from, which keeps it until the store is
    /// released (Verge's `storeWhileSourceActive()`): the result need not be kept.
    ///
    /// ```swift
    /// store.derived(\.count).sinkValue { changes in
    ///     print("count:", changes.current)
    /// }.storeWhileSourceActive()
    /// ```
    ///
    /// It works on the subscriptions of ``Derived/sinkValue(dropsFirst:file:line:_:)`` (and
    /// ``Derived/assign(file:line:to:)``) and of ``Store/sinkState(dropsFirst:file:line:_:)``
    /// (and ``Store/assign(file:line:to:)``). The source of a derived value is the store it was
    /// derived from; for a ``combined(_:)`` value of several stores, the subscription ends when
    /// the first of them is released. It also ends when cancelled; a cancelled subscription is
    /// let go when the store is released. Calling it again, or on a cancelled subscription,
    /// does nothing.
    ///
    /// The sinks keep their stores with the subscription itself, not in a table: a
    /// `sinkValue` reaction is one word larger, a `sinkState` subscription uses a spare word.
    ///
    /// - Complexity: O(s), for s source stores: one registration with each.
    /// - Returns: This subscription, to cancel it earlier if wanted.
    /// - Precondition: The subscription comes from one of the calls above.
    @discardableResult
    public func storeWhileSourceActive() -> Subscription {
        // The stores are the subscription's context, set by the sinks above (`_SourceStores`):
        // replaced by `handedOver`, atomically, so that only the first call hands it over.
        let context = _context
        if context === _SourceStores.handedOver { return self }
        guard let sources = context as? _SourceStores else {
            if isCancelled { return self }  // nothing left to keep (its context is let go)
            // `fatalError`, not `preconditionFailure`: optimized builds drop a precondition's message.
            fatalError(
                "RippleStore: storeWhileSourceActive() was called on a subscription that does not come from a store: only the subscriptions of Derived.sinkValue, Derived.assign(to:), Store.sinkState and Store.assign(to:) know their store. Keep this subscription yourself (in a property or a SubscriptionBag)."
            )
        }
        // Fails when another call handed it over first, or it was cancelled meanwhile.
        guard _replaceContext(sources, with: _SourceStores.handedOver) else { return self }
        _SourceLink(self).attach(to: sources.stores)
        return self
    }
}
