import Ripple

extension MainActorStore {
    /// Calls `receive` on the main actor with the current state (unless `dropsFirst`), then once
    /// per commit that changed it, in commit order.
    ///
    /// The first delivery happens before this returns. A commit made inside `receive` (or any
    /// subscriber or reaction) is delivered to every subscriber after the current delivery,
    /// never nested inside it.
    ///
    /// ```swift
    /// let subscription = store.sinkState { changes in
    ///     changes.ifChanged(\.title) { title in self.navigationItem.title = title }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current state.
    ///   - file: The file that subscribes, named in traces and diagnostics.
    ///   - line: The line that subscribes.
    ///   - receive: Called with each change. What it reads is not tracked, and it does not own
    ///     what it creates.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when
    ///   the store is released. It does not keep the store alive.
    public func sinkState(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @MainActor (Changes<State>) -> Void
    ) -> Subscription {
        let node = _core.node
        let previous = _MainActorBox<_MainActorSnapshot<State>?>(nil)
        return _endings.own(
            observeOnMainActor(file: file, line: line) {
                let snapshot = node.value
                let old = previous.value
                if let old, old.version >= snapshot.version { return }
                previous.value = snapshot
                if old == nil, dropsFirst { return }
                // The store's two snapshots, not copies of both states.
                let changes = Changes(_previous: old, current: snapshot)
                withoutOwner { untracked { receive(changes) } }
            })
    }

    /// Sends `activity` to the store's activity subscribers: something that happened, which is
    /// not state (a message was sent, a toast should show). It is never stored.
    ///
    /// Delivered like a write: at once, or, from inside a subscriber or reaction, after the
    /// current delivery.
    ///
    /// ```swift
    /// final class ChatStore: MainActorStore<ChatState, ChatActivity> {
    ///     func sendMessage() {
    ///         commit { $0.draft = "" }
    ///         send(.didSendMessage)
    ///     }
    /// }
    /// ```
    public func send(_ activity: Activity) {
        _activities.send(_MainActorOnly(value: activity))
    }

    /// Calls `receive` on the main actor with every activity sent from now on.
    ///
    /// ```swift
    /// let subscription = store.sinkActivity { activity in
    ///     if case .didSendMessage = activity { playSound() }
    /// }
    /// ```
    ///
    /// - Returns: A subscription that stops it when cancelled or released, or when the store is
    ///   released.
    public func sinkActivity(_ receive: @escaping @MainActor (Activity) -> Void) -> Subscription {
        // An activity is sent on the main actor and delivered on the sending thread.
        let handler = _MainActorOnly(value: receive)
        return _endings.own(
            _activities.subscribe { activity in
                MainActor.assumeIsolated { handler.value(activity.value) }
            })
    }
}
