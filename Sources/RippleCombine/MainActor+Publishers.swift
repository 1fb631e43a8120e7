import Dispatch
import Ripple
import RippleModels

extension MainActorComputed where Value: Sendable {
    /// A publisher of the value, for main-actor code: the current value when a subscriber first
    /// asks, then each change, sent on the main actor.
    ///
    /// ```swift
    /// let cancellable = model.title.publisher.removeDuplicates().sink { label.text = $0 }
    /// ```
    ///
    /// Subscribe on the main actor (as main-actor code does): the first demand starts a
    /// main-actor handler (`didChange(withCurrent:handler:)`), and made on
    /// another thread it stops the program with a message saying so. A subscriber with no demand
    /// left gets only the newest value when it asks again. It does not keep this value alive.
    public var publisher: RipplePublisher<Value> {
        RipplePublisher(onMainActor: "MainActorComputed.publisher") { [weak self] send in
            self?.didChange(withCurrent: true) { send($0) } ?? Ripple.Subscription {}
        }
    }
}

extension RipplePublisher {
    /// A publisher of a main-actor source: `start` runs on the main actor at a subscriber's first
    /// demand, which must be made there; made on another thread, the program stops with a
    /// message naming `source`.
    init(
        keepsEveryValue: Bool = false,
        onMainActor source: StaticString,
        _ start: @escaping @MainActor (_ send: @escaping @Sendable (Output) -> Void) -> Ripple.Subscription
    ) {
        self.init(keepsEveryValue: keepsEveryValue) { send in
            precondition(
                _isRunningOnMainActor(),
                "\(source): subscribed (first demand) off the main actor; subscribe to it on the main actor")
            return MainActor.assumeIsolated { start(send) }
        }
    }
}

extension Publisher where Failure == Never, Output: Sendable {
    /// Writes every value this publisher produces through `binding`, a main-actor model's
    /// property (`model.bindings.name`), on the main actor.
    ///
    /// ```swift
    /// let cancellable = names.assign(to: model.bindings.name)
    /// ```
    ///
    /// A value produced on the main actor is written at once; one produced on another thread is
    /// queued to the main queue and written there later (values from one thread in the order
    /// produced). Receive on the main actor first if the order across threads matters.
    ///
    /// - Returns: A cancellable that stops the writes when cancelled or released.
    @MainActor
    public func assign(to binding: MainActorValueBinding<Output>) -> AnyCancellable {
        sink { value in
            if _isRunningOnMainActor() {
                MainActor.assumeIsolated { binding.value = value }
            } else {
                DispatchQueue.main.async { binding.value = value }
            }
        }
    }
}
