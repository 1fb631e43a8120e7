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
    @inlinable
    public func sinkState(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @MainActor (Changes<State>) -> Void
    ) -> Subscription {
        // Inlinable: the `Changes` is made in code compiled for the concrete state, where this
        // module's generic code looked up its metadata, and retained both snapshots an extra
        // time, on every delivery.
        _sink(dropsFirst: dropsFirst, file: file, line: line) { previous, current in
            receive(Changes<State>(_deliveredFrom: previous, to: current))
        }
    }

    /// A plain subscriber, handed the snapshot it saw last (`nil` on its first delivery) and
    /// the published one: delivered by the store's one dispatching reaction on the main actor
    /// (the first delivery, before this returns, on this main-actor call), with the store's
    /// two snapshots, not copies of both states.
    @usableFromInline
    func _sink(
        dropsFirst: Bool,
        file: StaticString,
        line: UInt,
        _ deliver: @escaping @MainActor (_AnySnapshot?, _AnySnapshot) -> Void
    ) -> Subscription {
        _core.subscribe(
            _Sink(file: file, line: line, deliver: _MainActorStoreCore<State>.onMainActor(deliver)),
            dropsFirst: dropsFirst)
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
