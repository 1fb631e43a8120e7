extension Readable where Self: Sendable {
    /// Calls `handler` with the old and the new value each time the value changes.
    ///
    /// Unlike ``observe(file:line:_:)`` it does not run at once, and it tracks only this
    /// value: reads inside `handler` are not dependencies. Nor does `handler` own what it
    /// creates: a reaction started inside it runs as long as its own subscription, however
    /// often `handler` is called again.
    ///
    /// ```swift
    /// let transition = isTipHidden.onChange { old, new in
    ///     print("tip hidden: \(old) → \(new)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - handler: Called with the old and the new value after each change.
    /// - Returns: A ``Subscription`` that stops the handler when cancelled or released.
    public func onChange(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription where Value: Sendable {
        let previous = _ReactionLocal<Value?>(nil)
        return observe(file: file, line: line) {
            let new = self.value
            let old = previous.value
            previous.value = new
            if let old { _callHandler { handler(old, new) } }
        }
    }

    /// Calls `action` once, the first time `predicate` holds for the value (at once if it
    /// already does), then stops.
    ///
    /// `action` is untracked and does not own what it creates: a reaction started inside it
    /// runs as long as its own subscription.
    ///
    /// ```swift
    /// let once = isLoggedIn.when({ $0 }) { _ in showWelcome() }
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: The condition on the value.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - action: Called once with the first value that satisfies `predicate`.
    /// - Returns: A ``Subscription``; cancel it to give up waiting.
    public func when(
        _ predicate: @escaping @Sendable (Value) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line,
        perform action: @escaping @Sendable (Value) -> Void
    ) -> Subscription where Value: Sendable {
        Ripple.when(file: file, line: line, { predicate(self.value) }) {
            action(untracked { self.value })
        }
    }
}

extension Readable where Self: Sendable, Value: Sendable {
    /// The value now, then each new value, as an asynchronous sequence that keeps only the
    /// newest value the consumer has not taken yet: what a UI wants.
    ///
    /// The same as ``values(buffering:)`` with ``ValuesBuffering/latest``. A consumer that
    /// must see every value asks for ``ValuesBuffering/unbounded`` or
    /// ``ValuesBuffering/newest(_:)``.
    ///
    /// ```swift
    /// for await count in counter.values {
    ///     render(count)              // a slow render skips to the newest count
    /// }
    /// ```
    ///
    /// - Complexity: O(1) per change, and the memory of one value.
    public var values: AsyncStream<Value> {
        values(buffering: .latest)
    }

    /// The value now, then each new value, as an asynchronous sequence, buffered as `buffering`
    /// says while the consumer has not taken them.
    ///
    /// The sequence is fed by a reaction: it yields the value each time that reaction runs,
    /// that is once per write (or per ``batch(_:)``) that changed it. Writes from several
    /// threads that land before the reaction runs are delivered as one change: the sequence
    /// sees the latest value, not each intermediate one. Values are never reordered.
    ///
    /// ```swift
    /// for await event in log.values(buffering: .unbounded) {
    ///     write(event)               // every value, however slow the writer
    /// }
    /// ```
    ///
    /// Ending the iteration (or dropping the sequence) cancels the underlying reaction, and
    /// nothing else does: the sequence belongs to no reaction or ``ReactionScope``, so one made
    /// inside a reaction's body outlives that run.
    ///
    /// - Parameter buffering: What to keep while the consumer is behind.
    /// - Complexity: O(1) per change, plus the memory of the values kept.
    public func values(buffering: ValuesBuffering) -> AsyncStream<Value> {
        let policy: AsyncStream<Value>.Continuation.BufferingPolicy
        switch buffering {
        case .latest: policy = .bufferingNewest(1)
        case .newest(let count):
            guard count > 0 else {
                _rippleFailure("values(buffering: .newest(\(count))): the buffer must hold at least one value.")
            }
            policy = .bufferingNewest(count)
        case .unbounded: policy = .unbounded
        }
        return AsyncStream(bufferingPolicy: policy) { continuation in
            // Owned by no one: a reaction's run that made the sequence would cancel its
            // reaction at its next run, and the stream would then neither yield nor finish.
            let subscription = withoutOwner { observe { continuation.yield(self.value) } }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}

/// What a ``Readable/values(buffering:)`` sequence keeps while its consumer is behind.
public enum ValuesBuffering: Sendable, Hashable {
    /// Only the newest value: a consumer that falls behind skips to it (the default).
    case latest
    /// The newest `count` values: a consumer that falls behind by more loses the oldest.
    case newest(Int)
    /// Every value, without limit: a slow consumer of a value written in a tight loop holds
    /// every value in memory.
    case unbounded
}

/// Calls `action` once, the first time `condition` becomes true (at once if it already is),
/// then stops.
///
/// `condition` is tracked like a reaction; `action` is not, and it does not own what it
/// creates: a reaction started inside it runs as long as its own subscription.
///
/// ```swift
/// let once = when({ session.isLoggedIn.value && profile.isLoaded.value }) {
///     showWelcome()
/// }
/// ```
///
/// - Parameters:
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - condition: Tracked like a reaction; re-evaluated after every change of what it read.
///   - action: Called once, untracked, when `condition` first returns true.
/// - Returns: A ``Subscription``; cancel it to give up waiting.
public func when(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ condition: @escaping @Sendable () -> Bool,
    perform action: @escaping @Sendable () -> Void
) -> Subscription {
    // Let go of once it fired, so that a stopped `when` holds nothing its closures captured
    // (its subscription, kept by whoever made it, keeps the reaction's body alive).
    let pending = _ReactionLocal<(condition: @Sendable () -> Bool, action: @Sendable () -> Void)?>((condition, action))
    return observe(file: file, line: line) {
        guard let (condition, action) = pending.value, condition() else { return }
        pending.value = nil
        _ThreadContext.current.reaction?.cancel()
        _callHandler(action)
    }
}

/// Calls a handler from inside the reaction behind it: untracked, and with no owner, so that
/// what the handler creates belongs to whoever holds its subscription, not to the reaction
/// (which would cancel it before its next run).
func _callHandler(_ handler: () -> Void) {
    withoutOwner { untracked(handler) }
}

/// State owned by one reaction's body. A reaction never runs concurrently with itself,
/// so its body may keep state here without a lock.
final class _ReactionLocal<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
