/// Sends actions from an effect's asynchronous work to its store.
///
/// ``Effect/run(priority:operation:catch:)`` gives one to its operation:
///
/// ```swift
/// .run { send in
///     await send(.loaded(try await api.fetch()))
/// }
/// ```
///
/// An action sent after the effect was cancelled (or its store released) is dropped.
///
/// It takes any action type: the action is `sending`, handed over to the store, so the
/// operation must not use it after sending it.
public struct Send<Action>: Sendable {
    let deliver: @Sendable (sending Action) async -> Void

    /// Creates a `Send` that gives every action to `deliver`, for testing code that takes one.
    ///
    /// - Parameter deliver: Receives each action.
    public init(_ deliver: @escaping @Sendable (Action) -> Void) {
        self.deliver = deliver
    }

    /// A store's `Send`, whose delivery may wait for room in the store's queue.
    init(waiting deliver: @escaping @Sendable (sending Action) async -> Void) {
        self.deliver = deliver
    }

    /// Sends `action` to the store, unless the calling task was cancelled.
    ///
    /// The action is queued: it is reduced after the actions sent before it. On a store safe
    /// from any thread, the calling task reduces it at once when no other thread is reducing.
    /// While the store's queue is full (a thousand actions or so, sent faster than the store
    /// reduces them), it waits, suspended, until the store has reduced half of them: a stream
    /// of actions goes at the store's pace, and its memory stays bounded. On a
    /// ``MainActorReducerStore``, the action is queued for the main actor, and reduced there in
    /// the order the store's effects sent their actions.
    public func callAsFunction(_ action: sending Action) async {
        guard !Task.isCancelled else { return }
        await deliver(action)
    }
}
