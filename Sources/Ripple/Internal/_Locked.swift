/// State guarded by a lock of its own, reachable only inside ``withLock(_:)``.
///
/// For state beside the graph that several threads share (an ``AsyncComputed``'s run and
/// task, the runtime message sinks): which code holds the lock is in the types, not in
/// comments, and no function can return with it held. The lock is `_Lock`, the one lock type.
///
/// ```swift
/// let sinks = _Locked<[String]>([])
/// sinks.withLock { $0.append("a") }
/// let last = sinks.withLock { $0.last }
/// ```
final class _Locked<State> {
    private let lock = _Lock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock. `body` must not call user code, nor take
    /// the graph's lock (which may be held around this call, never inside it).
    ///
    /// - Complexity: O(1), plus `body`.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&state) }
    }
}

/// Sendable when the state is: every access holds the lock.
extension _Locked: @unchecked Sendable where State: Sendable {}
