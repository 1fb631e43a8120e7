import Ripple
import RippleStore
import Testing

extension Store {
    /// Waits until the value at `keyPath` in the store's state equals `expected`, and fails the
    /// test if it does not within `timeout` on `clock` (OneWay's `await store.expect(\.count, 1)`),
    /// for a live store (`ReducerStore`, `ViewStore`, any `Store`)
    /// whose effects change it asynchronously.
    ///
    /// ```swift
    /// let store = ReducerStore(reducer: Counter(), initialState: Counter.State())
    /// store.send(.load)
    /// await store.expect(\.number, 42)
    /// ```
    ///
    /// It returns at once when the state already matches; otherwise as soon as a commit makes it
    /// match (a value that matches only between two deliveries is not seen). When `timeout`
    /// passes on `clock` first, it records an issue naming the key path, the expected value and
    /// the value the state holds, and returns. Cancelling the calling task ends the wait with an
    /// issue too. With a ``TestClock`` as `clock`, the timeout passes only when the test moves
    /// that clock, so a test of the failure needs no sleeping; its deadline is taken when the
    /// call starts.
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch.
    ///   - expected: The value to wait for.
    ///   - timeout: How long to wait on `clock`; two seconds by default.
    ///   - clock: The clock the timeout runs on: the continuous clock by default.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    /// - Complexity: One state subscription and one timer task for the wait; each commit costs a
    ///   key-path read and a comparison.
    nonisolated(nonsending) public func expect<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        _ expected: Value,
        timeout: Duration = .seconds(2),
        clock: some Clock<Duration> = ContinuousClock(),
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let waiter = _ExpectationWaiter()
        let deadline = clock.now.advanced(by: timeout)
        let subscription = sinkState { changes in
            if changes.current[keyPath: keyPath] == expected { waiter.resolve(.matched) }
        }
        let outcome = await waiter.wait(until: deadline, on: clock)
        subscription.cancel()
        _recordExpectation(
            outcome, keyPath: keyPath, expected: expected, actual: currentState[keyPath: keyPath], timeout: timeout,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension MainActorStore {
    /// Waits until the value at `keyPath` in the store's state equals `expected`, and fails the
    /// test if it does not within `timeout` on `clock`: `Store`'s `expect(_:_:timeout:clock:)` for a
    /// main-actor store (`MainActorReducerStore`).
    ///
    /// ```swift
    /// store.send(.load)
    /// await store.expect(\.number, 42)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch.
    ///   - expected: The value to wait for.
    ///   - timeout: How long to wait on `clock`; two seconds by default.
    ///   - clock: The clock the timeout runs on: the continuous clock by default.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    /// - Complexity: One state subscription and one timer task for the wait.
    public func expect<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value>,
        _ expected: Value,
        timeout: Duration = .seconds(2),
        clock: some Clock<Duration> = ContinuousClock(),
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let waiter = _ExpectationWaiter()
        let deadline = clock.now.advanced(by: timeout)
        let subscription = sinkState { changes in
            if changes.current[keyPath: keyPath] == expected { waiter.resolve(.matched) }
        }
        let outcome = await waiter.wait(until: deadline, on: clock)
        subscription.cancel()
        _recordExpectation(
            outcome, keyPath: keyPath, expected: expected, actual: currentState[keyPath: keyPath], timeout: timeout,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

/// Records the issue for an `expect` that did not match.
func _recordExpectation<Root, Value>(
    _ outcome: _ExpectationWaiter.Outcome, keyPath: KeyPath<Root, Value>, expected: Value, actual: Value,
    timeout: Duration, at here: SourceLocation
) {
    switch outcome {
    case .matched:
        return
    case .timedOut:
        Issue.record(
            "Expected \(keyPath) to become \(expected) within \(timeout), but it is \(actual).", sourceLocation: here)
    case .cancelled:
        Issue.record(
            "Expected \(keyPath) to become \(expected), but the wait was cancelled while it is \(actual).",
            sourceLocation: here)
    }
}

/// One wait of `expect`: the first of a match, the timeout and cancellation decides it.
final class _ExpectationWaiter: @unchecked Sendable {
    enum Outcome: Sendable { case matched, timedOut, cancelled }

    private let lock = _Lock()
    private var outcome: Outcome?
    private var continuation: CheckedContinuation<Outcome, Never>?

    /// Decides the wait, unless it already is (resuming the waiter outside the lock).
    func resolve(_ result: Outcome) {
        let resume = lock.withLock { () -> CheckedContinuation<Outcome, Never>? in
            guard outcome == nil else { return nil }
            outcome = result
            defer { continuation = nil }
            return continuation
        }
        resume?.resume(returning: result)
    }

    /// Waits until the wait is decided, deciding it as timed out at `deadline` on `clock`.
    nonisolated(nonsending) func wait<C: Clock>(until deadline: C.Instant, on clock: C) async -> Outcome {
        if let decided = lock.withLock({ outcome }) { return decided }
        let timer = Task { [self] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
                resolve(.timedOut)
            } catch {}
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiting: CheckedContinuation<Outcome, Never>) in
                let decided = lock.withLock { () -> Outcome? in
                    if let outcome { return outcome }
                    continuation = waiting
                    return nil
                }
                if let decided { waiting.resume(returning: decided) }
            }
        } onCancel: {
            resolve(.cancelled)
        }
    }
}
