import Ripple

extension Readable where Self: Sendable, Value: Sendable {
    /// A publisher of the value: the current value when a subscriber first asks, then each
    /// change (once per write or outermost `batch` that changed it).
    ///
    /// ```swift
    /// let cancellable = viewModel.title.publisher.sink { label.text = $0 }
    /// ```
    ///
    /// A subscriber with no demand left gets only the newest value when it asks again.
    ///
    /// The subscriber is called as a handler, not as the reaction's body: what it reads is not
    /// a dependency (a change of it sends nothing), and what it creates belongs to no run (a
    /// reaction it starts is not cancelled by the next value).
    public var publisher: RipplePublisher<Value> {
        RipplePublisher { send in
            withoutOwner {
                observe {
                    let value = self.value
                    withoutOwner { untracked { send(value) } }
                }
            }
        }
    }
}

extension Event where Value: Sendable {
    /// A publisher of the values sent from now on. A subscriber with no demand left gets every
    /// one later, in order.
    ///
    /// ```swift
    /// let cancellable = tapped.publisher.sink { print("tapped", $0) }
    /// ```
    public var publisher: RipplePublisher<Value> {
        RipplePublisher(keepsEveryValue: true) { send in self.subscribe(send) }
    }
}

extension Publisher where Failure == Never, Output: Sendable {
    /// Writes every value this publisher produces to `stored`.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default.publisher(for: .didLogIn)
    ///     .map { _ in true }
    ///     .assign(to: session.isLoggedIn)
    /// ```
    ///
    /// - Returns: A cancellable that stops the writes when cancelled or released.
    public func assign(to stored: Stored<Output>) -> AnyCancellable where Output: Sendable {
        sink { stored.value = $0 }
    }

    /// Calls `update` with `stored`'s current value and each value this publisher produces, as
    /// one atomic read-modify-write of `stored` (`Stored.update`).
    ///
    /// ```swift
    /// let cancellable = messages.sink(into: unread) { count, _ in count += 1 }
    /// ```
    ///
    /// - Returns: A cancellable that stops the updates when cancelled or released.
    public func sink<Value>(
        into stored: Stored<Value>,
        _ update: @escaping @Sendable (inout Value, Output) -> Void
    ) -> AnyCancellable {
        sink { output in stored.update { update(&$0, output) } }
    }
}
