import Ripple

/// Sends actions from a callback API to a store, for ``Effect/create(_:)``.
///
/// Call ``send(_:)`` from any thread, any number of times, then ``finish()`` when the source is
/// done. When the effect ends (finished, cancelled, or its store released) the handlers given to
/// ``onTermination(_:)`` run, once, and later sends are dropped.
///
/// ```swift
/// .create { continuation in
///     let observer = center.addObserver(forName: .didLogIn) { _ in continuation.send(.loggedIn) }
///     continuation.onTermination { center.removeObserver(observer) }
/// }
/// ```
public final class EffectContinuation<Action>: Sendable {
    private let deliver: @Sendable (sending Action) -> Void
    private let ended: @Sendable () -> Void
    private let state = _LockedState()

    private final class _LockedState: @unchecked Sendable {
        let lock = _Lock()
        var isFinished = false
        var handlers: [@Sendable () -> Void] = []
    }

    init(deliver: @escaping @Sendable (sending Action) -> Void, ended: @escaping @Sendable () -> Void) {
        self.deliver = deliver
        self.ended = ended
    }

    /// Whether the effect has ended: finished, cancelled, or its store released.
    public var isFinished: Bool {
        state.lock.withLock { state.isFinished }
    }

    /// Sends `action` to the store (queued like any action), unless the effect has ended.
    public func send(_ action: sending Action) {
        guard !isFinished else { return }
        deliver(action)
    }

    /// Ends the effect: later sends are dropped and the termination handlers run.
    public func finish() {
        terminate()
        ended()
    }

    /// Adds `handler`, to run once when the effect ends; at once if it already has.
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.lock.withLock { () -> Bool in
            if state.isFinished { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Marks the effect ended and runs the handlers (outside the lock).
    func terminate() {
        let handlers = state.lock.withLock { () -> [@Sendable () -> Void] in
            if state.isFinished { return [] }
            state.isFinished = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}
