import Ripple
import RippleStore
import Testing

/// A reducer store for tests: each step says which action is reduced and exactly how the state
/// changes, every action an effect sends must be received and asserted, and time is a
/// ``TestClock`` the test moves (TCA's and OneWay's `TestStore`).
///
/// ```swift
/// @Test func load() async {
///     let store = TestStore(reducer: Counter(), initialState: Counter.State())
///     await store.send(.increment) { $0.number = 1 }
///     await store.send(.load)                          // no state change
///     await store.receive(.loaded(42)) { $0.number = 42 }
///     await store.finish()
/// }
/// ```
///
/// **Exhaustive by default.** A step fails the test when the state after it differs from the
/// expectation (the state before, changed by the step's `assert` closure), so every change must
/// be asserted; sending while actions an effect sent are waiting to be received fails; and the
/// test fails at ``finish(fileID:filePath:line:column:)`` (or when the store is released) if an
/// effect sent an action nobody received or is still running. The effects of the reducer's
/// global inputs (`Reducer.bind()`) run for the store's life: they are not counted as still
/// running, and end with the store (their actions are received as any effect's). With
/// ``Exhaustivity/off``, a step's `assert` closure checks only what it touches, the actions
/// effects sent are reduced without a check by the next `send` (first, as a real store would
/// have), by a `receive` (those before the one it expects), by ``skipReceivedActions()`` or by
/// ``finish(fileID:filePath:line:column:)``, and effects still running at the end are cancelled
/// silently.
///
/// **How actions flow.** Actions that effects send (synchronously with `.send`, or from
/// asynchronous work) are not reduced when sent: they wait for ``receive(_:assert:fileID:filePath:line:column:)``,
/// which reduces them, in order. So `send(.twice)` changes nothing, and two
/// `receive(.increment)` follow it.
///
/// **Waiting.** Each step lets the store's effects run until every effect task has ended or
/// sleeps on the clock, checking a bounded number of times (no wall-clock timeout): an effect
/// waiting on the clock needs ``TestClock/advance(by:)`` before its action can be received.
///
/// **From any test's isolation.** Its asynchronous methods run on the caller's actor
/// (`nonisolated(nonsending)`): a `@MainActor` test, or a test in a target that is main-actor
/// isolated by default, passes `assert` closures that capture its own state, and they run on
/// the main actor. The effects still run in their own tasks.
public final class TestStore<R: Reducer>: @unchecked Sendable where R: Sendable, R.State: Sendable, R.Action: Sendable {
    /// How strictly a ``TestStore`` checks.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every state change, received action and running effect must be asserted.
        case on
        /// Only what each step asserts is checked.
        case off
    }

    /// The clock the store's effects wait on.
    public let clock: TestClock
    let store: ReducerStore<R>
    let inbox: _Inbox
    private let settlerKey: UInt64
    private let location: SourceLocation

    final class _Inbox: @unchecked Sendable {
        let lock = _Lock()
        var received: [R.Action] = []
        var exhaustivity: Exhaustivity
        var isFinished = false
        /// Numbers the `send` calls, for their ``TestStoreTask``s.
        var sends: UInt64 = 0

        init(exhaustivity: Exhaustivity) {
            self.exhaustivity = exhaustivity
        }
    }

    /// Creates a test store.
    ///
    /// - Parameters:
    ///   - reducer: The reducer under test.
    ///   - initialState: The state before the first step.
    ///   - clock: The clock debounce, throttle and the reducer's own waits use.
    ///   - exhaustivity: How strictly to check.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    public init(
        reducer: R,
        initialState: R.State,
        clock: TestClock = TestClock(),
        exhaustivity: Exhaustivity = .on,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let inbox = _Inbox(exhaustivity: exhaustivity)
        self.clock = clock
        self.inbox = inbox
        self.location = location
        store = ReducerStore(
            _reducer: reducer,
            initialState: initialState,
            name: "TestStore<\(R.self)>",
            clock: clock,
            middleware: [],
            logger: nil,
            onEffectError: { error in
                Issue.record("An effect threw \(error), and had no catch handler.", sourceLocation: location)
            },
            onMainActor: false,
            intercept: { action in inbox.lock.withLock { inbox.received.append(action) } }
        )
        let engine = store._engine
        settlerKey = clock._addSettler { await Self.settle(engine, clock) }
    }

    deinit {
        clock._removeSettler(settlerKey)
        if !inbox.lock.withLock({ inbox.isFinished }) {
            checkEnd(at: location)
        }
        store._engine.stop(ending: true)
    }

    /// How strictly the store checks; may change between steps.
    public var exhaustivity: Exhaustivity {
        get { inbox.lock.withLock { inbox.exhaustivity } }
        set { inbox.lock.withLock { inbox.exhaustivity = newValue } }
    }

    /// The current state.
    public var state: R.State { store.currentState }

    /// The underlying store, for what a step does not cover (subscriptions, derived values).
    public var underlyingStore: ReducerStore<R> { store }

    /// The actions effects sent that have not been received yet.
    public var receivedActions: [R.Action] {
        inbox.lock.withLock { inbox.received }
    }

    /// Sends `action` and checks the state change: `assert` changes the state before the
    /// action into the expected state after it (with ``Exhaustivity/off``: changes the actual
    /// state, which must not change it).
    ///
    /// ```swift
    /// await store.send(.increment) { $0.number = 1 }
    /// ```
    ///
    /// Fails the test when the state differs, or when actions effects sent are still waiting
    /// to be received (exhaustive mode). Then lets the action's effects run until they end or
    /// wait on the clock.
    ///
    /// Returns the action's effects as a ``TestStoreTask``, for a test that cancels them
    /// (`await task.cancel()`) or waits for them to end (`await task.finish()`) instead of
    /// driving them to their end; a test that does not need it ignores it.
    ///
    /// ```swift
    /// let timer = await store.send(.startTimer)
    /// await timer.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action to reduce.
    ///   - assert: Changes the expected state.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    /// - Returns: The effects the action started.
    @discardableResult
    nonisolated(nonsending) public func send(
        _ action: R.Action,
        assert: ((inout R.State) throws -> Void)? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async -> TestStoreTask {
        let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let pending = inbox.lock.withLock { () -> [R.Action] in
            defer { inbox.received = [] }
            return inbox.received
        }
        if !pending.isEmpty {
            if exhaustivity == .on {
                Issue.record(
                    "Sent \(action) while \(pending.count) action(s) sent by effects had not been received: \(Self.list(pending)). Receive them first (await store.receive(…)), or use exhaustivity .off.",
                    sourceLocation: here)
            } else {
                for action in pending { store.send(action) }
            }
        }
        let number = inbox.lock.withLock { () -> UInt64 in
            inbox.sends += 1
            return inbox.sends
        }
        let mark = _SendMark(number: number)
        let engine = store._engine
        let clock = clock
        engine.markingEffects(mark) { step(action, assert, at: here) }
        await Self.settle(engine, clock)
        return TestStoreTask(
            action: "\(action)",
            cancelEffects: { engine.cancelEffects(marked: mark) },
            runningCount: { engine.runningEffectCount(marked: mark) },
            settle: { await Self.settle(engine, clock) }
        )
    }

    /// Waits for the next action an effect sent, checks that it is `expected`, reduces it and
    /// checks the state change like ``send(_:assert:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// await store.send(.load)
    /// await store.receive(.loaded(42)) { $0.number = 42 }
    /// ```
    ///
    /// With ``Exhaustivity/off``, actions before the first equal one are reduced without
    /// checks. Fails when no such action arrives before every effect has ended or waits on the
    /// clock.
    ///
    /// - Parameters:
    ///   - expected: The action an effect must have sent next.
    ///   - assert: Changes the expected state.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    nonisolated(nonsending) public func receive(
        _ expected: R.Action,
        assert: ((inout R.State) throws -> Void)? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async where R.Action: Equatable {
        await receive(
            "\(expected)", where: { $0 == expected }, assert: assert,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Waits for the next action an effect sent that `matches` (for actions that are not
    /// `Equatable`), reduces it and checks the state change.
    ///
    /// ```swift
    /// await store.receive(where: { if case .failed = $0 { true } else { false } }) {
    ///     $0.error = "offline"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - matches: Whether an action is the one expected.
    ///   - assert: Changes the expected state.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    nonisolated(nonsending) public func receive(
        where matches: (R.Action) -> Bool,
        assert: ((inout R.State) throws -> Void)? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        await receive(
            "an action that matches", where: matches, assert: assert,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    nonisolated(nonsending) private func receive(
        _ description: String,
        where matches: (R.Action) -> Bool,
        assert: ((inout R.State) throws -> Void)?,
        at here: SourceLocation
    ) async {
        while true {
            guard let next = await nextReceived() else {
                let running = store._engine.runningEffectCount
                Issue.record(
                    "Expected to receive \(description), but no action was received\(running > 0 ? ": \(running) effect(s) are still running (advance the test clock if they wait on it)" : " and no effect is running").",
                    sourceLocation: here)
                return
            }
            if matches(next) {
                step(next, assert, at: here)
                break
            }
            if exhaustivity == .on {
                Issue.record("Expected to receive \(description), but received \(next).", sourceLocation: here)
                step(next, assert, at: here)
                break
            }
            store.send(next)
        }
        await Self.settle(store._engine, clock)
    }

    /// Moves the clock by `duration` (``TestClock/advance(by:)``).
    nonisolated(nonsending) public func advance(by duration: Duration) async {
        await clock.advance(by: duration)
    }

    /// Ends the test's use of the store: lets effects run until they end or wait on the clock,
    /// then fails the test (exhaustive mode) for each action effects sent that was not
    /// received (non-exhaustive mode: reduces them, and what they send in turn) and for effects
    /// still running (not counting the reducer's global inputs, which
    /// run for the store's life); finally cancels every effect.
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
        await Self.settle(store._engine, clock)
        if exhaustivity == .off {
            // What effects sent and no step received is reduced, as a real store would have,
            // and what that sends in turn (a bounded number of rounds).
            var rounds = 0
            while rounds < Self.finishRounds, !receivedActions.isEmpty {
                await skipReceivedActions()
                await Self.settle(store._engine, clock)
                rounds += 1
            }
        }
        checkEnd(at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        inbox.lock.withLock { inbox.isFinished = true }
        store._engine.stop(ending: false)
    }

    /// The rounds of effect actions a non-exhaustive ``finish(fileID:filePath:line:column:)``
    /// reduces at most (an effect that sends again each time it is reduced would never end).
    static var finishRounds: Int { 1_000 }

    /// Reduces the actions effects sent that were not received, without checking them.
    nonisolated(nonsending) public func skipReceivedActions() async {
        await Self.settle(store._engine, clock)
        let pending = inbox.lock.withLock { () -> [R.Action] in
            defer { inbox.received = [] }
            return inbox.received
        }
        for action in pending { store.send(action) }
    }

    /// Cancels every running effect, so the test may end while some would still run.
    nonisolated(nonsending) public func skipInFlightEffects() async {
        store._engine.stop(ending: false)
    }

    // MARK: Steps

    /// Reduces `action` and checks the state it leaves.
    private func step(_ action: R.Action, _ assert: ((inout R.State) throws -> Void)?, at here: SourceLocation) {
        let before = store.currentState
        store.send(action)
        let after = store.currentState
        var expected = exhaustivity == .on ? before : after
        do {
            try assert?(&expected)
        } catch {
            Issue.record("The assertion for \(action) threw \(error).", sourceLocation: here)
            return
        }
        if expected != after {
            Issue.record(
                "The state after \(action) is not the expected one (−expected, +actual):\n\(_stateDifference(expected, after))",
                sourceLocation: here)
        }
    }

    /// The next action an effect sent, waiting for one while effects run; `nil` when none
    /// arrived and none can arrive without the clock moving.
    nonisolated(nonsending) private func nextReceived() async -> R.Action? {
        for _ in 0..<_TestStoreWaiting.checks {
            if let action = takeReceived() { return action }
            if Self.isSettled(store._engine, clock) { break }
            await Task.yield()
        }
        return takeReceived()
    }

    private func takeReceived() -> R.Action? {
        inbox.lock.withLock { inbox.received.isEmpty ? nil : inbox.received.removeFirst() }
    }

    /// The end-of-test checks.
    private func checkEnd(at here: SourceLocation) {
        guard exhaustivity == .on else { return }
        let pending = receivedActions
        if !pending.isEmpty {
            Issue.record(
                "\(pending.count) action(s) sent by effects were not received: \(Self.list(pending)).",
                sourceLocation: here)
        }
        let running = store._engine.runningActionEffectCount
        if running > 0 {
            Issue.record(
                "\(running) effect(s) are still running at the end of the test. Let them end (advance the test clock, cancel them), or call skipInFlightEffects().",
                sourceLocation: here)
        }
    }

    /// Whether every running effect task sleeps on the clock (or none runs).
    private static func isSettled(_ engine: _ReducerEngine<R>, _ clock: TestClock) -> Bool {
        engine.runningTaskCount <= clock.sleeperCount(ownedBy: ObjectIdentifier(engine))
    }

    /// Lets effects run until every effect task has ended or sleeps on the clock, checking a
    /// bounded number of times.
    nonisolated(nonsending) static func settle(_ engine: _ReducerEngine<R>, _ clock: TestClock) async {
        for _ in 0..<_TestStoreWaiting.checks {
            if isSettled(engine, clock) { return }
            await Task.yield()
        }
    }

    private static func list(_ actions: [R.Action]) -> String {
        actions.map { "\($0)" }.joined(separator: ", ")
    }
}

enum _TestStoreWaiting {
    /// How many times a step checks whether effects have settled, yielding between checks.
    static let checks = 10_000
}

/// The lines in which `expected` and `actual` differ, as a diff of their dumps.
func _stateDifference<Value>(_ expected: Value, _ actual: Value) -> String {
    var expectedDump = ""
    var actualDump = ""
    dump(expected, to: &expectedDump)
    dump(actual, to: &actualDump)
    let old = expectedDump.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actualDump.split(separator: "\n", omittingEmptySubsequences: false)
    var prefix = 0
    while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
        suffix += 1
    }
    var lines: [String] = []
    for line in old[max(0, prefix - 2)..<prefix] { lines.append("  \(line)") }
    for line in old[prefix..<(old.count - suffix)] { lines.append("− \(line)") }
    for line in new[prefix..<(new.count - suffix)] { lines.append("+ \(line)") }
    return lines.joined(separator: "\n")
}
