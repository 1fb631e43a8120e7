import Ripple
import Testing

/// The effects of one action a test store's `send` reduced, for the test to cancel or wait
/// for (TCA's `TestStoreTask`).
///
/// ```swift
/// let timer = await store.send(.startTimer)
/// await store.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.ticks = 1 }
/// await timer.cancel()          // the timer's loop ends; finish() finds nothing running
/// await store.finish()
/// ```
///
/// It covers every effect the action's reduction started, and every effect those start later
/// from inside their own tasks (a `concat`'s later steps, a `cancellable` step, a debounced or
/// throttled effect), but not the effects of the actions they send, which are reduced by
/// `receive`. ``TestStore/send(_:assert:fileID:filePath:line:column:)`` and
/// ``MainActorTestStore/send(_:assert:fileID:filePath:line:column:)`` return it as a
/// discardable result, so `await store.send(.x) { … }` reads as before.
public struct TestStoreTask: Sendable {
    let cancelEffects: @Sendable () async -> Void
    let runningCount: @Sendable () async -> Int
    let settle: @Sendable () async -> Void
    let action: String
    private let cancelled = _Flag()

    init(
        action: String,
        cancelEffects: @escaping @Sendable () async -> Void,
        runningCount: @escaping @Sendable () async -> Int,
        settle: @escaping @Sendable () async -> Void
    ) {
        self.action = action
        self.cancelEffects = cancelEffects
        self.runningCount = runningCount
        self.settle = settle
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.isSet }

    /// Cancels the effects of the action: their tasks are cancelled and what they send later is
    /// dropped, as with `Effect.cancel(id:)`. Then lets the store's effects run until they end
    /// or wait on the clock.
    nonisolated(nonsending) public func cancel() async {
        cancelled.set()
        await cancelEffects()
        await settle()
    }

    /// Lets the store's effects run until they end or wait on the clock (a bounded number of
    /// checks, no wall-clock timeout), then fails the test if an effect of the action is still
    /// running: one that waits on the test clock needs the clock moved first.
    ///
    /// - Parameters:
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    nonisolated(nonsending) public func finish(
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        await settle()
        let running = await runningCount()
        if running > 0 {
            Issue.record(
                "\(running) effect(s) of \(action) are still running: they wait on the test clock (advance it) or on something that did not happen.",
                sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
}

/// A flag set once, read from any thread.
final class _Flag: @unchecked Sendable {
    private let lock = _Lock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// The cancellation id a test store's `send` starts its action's effects under.
struct _SendMark: Hashable, Sendable {
    let number: UInt64
}
