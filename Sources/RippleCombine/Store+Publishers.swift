import Ripple
import RippleModels
import RippleStore

extension Store {
    /// A publisher of the store's state: the current state when a subscriber first asks,
    /// then the state after each commit that changed it. A subscriber with no demand left gets
    /// only the newest state when it asks again.
    ///
    /// ```swift
    /// let cancellable = store.statePublisher.map(\.count).removeDuplicates().sink { print($0) }
    /// ```
    public var statePublisher: RipplePublisher<State> {
        RipplePublisher { send in self.sinkState { send($0.current) } }
    }

    /// A publisher of each commit's `Changes` (the first one holds the current state): ask
    /// it what changed with `ifChanged`. A subscriber with no demand left gets every one later.
    ///
    /// ```swift
    /// let cancellable = store.changesPublisher.sink { changes in
    ///     changes.ifChanged(\.count) { print("count:", $0) }
    /// }
    /// ```
    public var changesPublisher: RipplePublisher<Changes<State>> {
        RipplePublisher(keepsEveryValue: true) { send in self.sinkState { send($0) } }
    }
}

extension Store where Activity: Sendable {
    /// A publisher of the activities the store sends from now on. A subscriber with no demand
    /// left gets every one later, in order.
    public var activityPublisher: RipplePublisher<Activity> {
        RipplePublisher(keepsEveryValue: true) { send in self.sinkActivity(send) }
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
