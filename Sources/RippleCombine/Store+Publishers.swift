import Ripple
import RippleModels
import RippleStore

extension Store {
    /// A publisher of the store's state: the current state when a subscriber first asks,
    /// then the state after each commit that changed it. A subscriber with no demand left gets
    /// only the newest state when it asks again.
    ///
    /// It does not keep the store alive, and finishes when the store is released.
    ///
    /// ```swift
    /// let cancellable = store.statePublisher.map(\.count).removeDuplicates().sink { print($0) }
    /// ```
    public var statePublisher: RipplePublisher<State> {
        RipplePublisher(
            finishing: untilReleased { store, send in store.sinkState { send($0.current) } }, watch: releaseWatch())
    }

    /// A publisher of each commit's `Changes` (the first one holds the current state): ask
    /// it what changed with `ifChanged`. A subscriber with no demand left gets every one later.
    /// It does not keep the store alive, and finishes when the store is released.
    ///
    /// ```swift
    /// let cancellable = store.changesPublisher.sink { changes in
    ///     changes.ifChanged(\.count) { print("count:", $0) }
    /// }
    /// ```
    public var changesPublisher: RipplePublisher<Changes<State>> {
        RipplePublisher(
            keepsEveryValue: true, finishing: untilReleased { store, send in store.sinkState { send($0) } },
            watch: releaseWatch())
    }
}

extension Store where Activity: Sendable {
    /// A publisher of the activities the store sends from now on. A subscriber with no demand
    /// left gets every one later, in order. It does not keep the store alive, and finishes
    /// when the store is released.
    public var activityPublisher: RipplePublisher<Activity> {
        RipplePublisher(
            keepsEveryValue: true, finishing: untilReleased { store, send in store.sinkActivity(send) },
            watch: releaseWatch())
    }
}

extension Store {
    /// A publisher's start that holds the store weakly and finishes when it is released (at
    /// once if it is gone already): `subscribe` subscribes to the store with the function that
    /// sends a value.
    func untilReleased<Output: Sendable>(
        _ subscribe:
            @escaping @Sendable (_ store: Store, _ send: @escaping @Sendable (Output) -> Void) -> Ripple.Subscription
    ) -> RipplePublisher<Output>.Start {
        { [weak self] send, finish in
            guard let self else {
                finish()
                return Ripple.Subscription {}
            }
            return self._ownUntilReleased(subscribe(self, send), finishing: finish)
        }
    }

    /// A publisher's watch of the store's release, from the moment a subscriber attaches: it
    /// finishes the subscriber when the store is released (at once if it is gone already),
    /// whether or not the subscriber has asked for a value yet.
    func releaseWatch() -> _PublisherWatch {
        { [weak self] finish in
            guard let self else {
                finish()
                return Ripple.Subscription {}
            }
            return self._ownUntilReleased(Ripple.Subscription {}, finishing: finish)
        }
    }
}

extension Publisher where Failure == Never, Output: Sendable {
    /// Writes every value this publisher produces through `binding` (a model property, a part
    /// of a store's state).
    ///
    /// - Returns: A cancellable that stops the writes when cancelled or released.
    public func assign(to binding: ValueBinding<Output>) -> AnyCancellable {
        sink { binding.value = $0 }
    }
}
