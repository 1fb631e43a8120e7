extension Store {
    /// Sends `activity` to the store's activity subscribers: something that happened, which is
    /// not state (a message was sent, a toast should show). It is never stored.
    ///
    /// Delivered like a write: at once, or, from inside a subscriber or reaction, after the
    /// current delivery.
    ///
    /// ```swift
    /// final class ChatStore: Store<ChatState, ChatActivity>, @unchecked Sendable {
    ///     func sendMessage() {
    ///         commit { $0.draft = "" }
    ///         send(.didSendMessage)
    ///     }
    /// }
    /// ```
    public func send(_ activity: Activity) {
        if let logger = _core.logger {
            logger.didSendActivity(StoreLog.Activity(store: name, activity: "\(activity)"))
        }
        _activities.send(activity)
    }

    /// Calls `receive` with every activity sent from now on, on the sending thread.
    ///
    /// ```swift
    /// let subscription = store.sinkActivity { activity in
    ///     if case .didSendMessage = activity { playSound() }
    /// }
    /// ```
    ///
    /// Made inside a reaction's body, the subscription also ends when that reaction runs again
    /// or ends, as a reaction made there would (make it inside `withoutOwner { }` to keep it).
    ///
    /// - Returns: A subscription that stops it when cancelled or released, or when the store is
    ///   released.
    public func sinkActivity(_ receive: @escaping @Sendable (Activity) -> Void) -> Subscription {
        _core.own(_activities.subscribe(receive))
    }

    /// The activities sent from now on, as an asynchronous sequence that ends when the store is
    /// released. Each access returns a new sequence, which sees every activity sent after the
    /// access, in order.
    ///
    /// ```swift
    /// for await activity in store.activities { … }
    /// ```
    public var activities: AsyncStream<Activity> {
        let (stream, continuation) = AsyncStream.makeStream(of: Activity.self)
        // Without an owner: made inside a reaction, the sequence outlives the reaction's run
        // (it ends when the store is released, or when its iteration stops).
        let subscription = _core.own(withoutOwner { _activities.subscribe { continuation.yield($0) } }) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
