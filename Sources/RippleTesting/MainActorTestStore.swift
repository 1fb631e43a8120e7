import Ripple
import RippleStore
import Testing

/// A test store for a reducer whose conformances are isolated to the main actor: the
/// ``TestStore`` of an app target that is main-actor isolated by default (Xcode 26), driving a
/// `MainActorReducerStore` from main-actor tests.
///
/// ```swift
/// @Test func debouncedSearch() async {
///     let store = MainActorTestStore(reducer: SearchFeature(catalog: ["Milk", "Eggs"]), initialState: SearchFeature.State())
///     await store.send(.queryChanged("milk")) { $0.query = "milk" }
///     await store.clock.advance(by: .milliseconds(300))
///     await store.receive(.search)
///     await store.receive(.found(["Milk"])) { $0.results = ["Milk"] }
///     await store.finish()
/// }
/// ```
///
/// It checks what ``TestStore`` checks, the same way: each step's state change, every action
/// an effect sends (received with `receive`, in order), and the effects still running at
/// ``finish(fileID:filePath:line:column:)`` (not counting the reducer's global inputs,
/// `Reducer.bind()`, which run for the store's life). With ``Exhaustivity/off``, only what each
/// step asserts is checked. The reducer, its state and its actions need no `Sendable`;
/// `receive(_:)` needs `Equatable` actions, whose conformance may be main-actor isolated.
///
/// For a reducer that is `Sendable` with `Sendable` state and actions, ``TestStore`` tests it
/// from any isolation. Swift cannot express one generic test store that accepts both (see
/// `MainActorReducerStore`).
///
/// **Waiting.** Each step lets the store's effects run until every effect task has ended or
/// sleeps on the clock, checking a bounded number of times (no wall-clock timeout).
@MainActor
public final class MainActorTestStore<R: Reducer> {
    /// How strictly a ``MainActorTestStore`` checks (as ``TestStore/Exhaustivity``).
    public enum Exhaustivity: Sendable, Equatable {
        /// Every state change, received action and running effect must be asserted.
        case on
        /// Only what each step asserts is checked.
        case off
    }

    /// The clock the store's effects wait on.
    public let clock: TestClock
    let store: MainActorReducerStore<R>
    let inbox: _Inbox
    private nonisolated let settlerKey: UInt64
    private nonisolated let engineInbox: _MainActorEffectInbox<R.Action>
    private let location: SourceLocation
    /// Numbers the `send` calls, for their ``TestStoreTask``s.
    private var sends: UInt64 = 0

    /// What the test has received, reachable from `deinit`. `@unchecked Sendable`: every field
    /// is guarded by `lock`; the actions are only put in and taken out on the main actor.
    final class _Inbox: @unchecked Sendable {
        let lock = _Lock()
        var received: [R.Action] = []
        var exhaustivity: Exhaustivity
        var isFinished = false

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
        store = MainActorReducerStore(
            _reducer: reducer,
            initialState: initialState,
            name: "MainActorTestStore<\(R.self)>",
            clock: clock,
            onEffectError: { error in
                Issue.record("An effect threw \(error), and had no catch handler.", sourceLocation: location)
            },
            intercept: { action in inbox.lock.withLock { inbox.received.append(action) } }
        )
        let engine = store._engine!
        engineInbox = engine.inbox
        settlerKey = clock._addSettler { @MainActor in await Self.settle(engine, clock) }
    }

    deinit {
        clock._removeSettler(settlerKey)
        let (isFinished, exhaustivity, pending) = inbox.lock.withLock {
            (inbox.isFinished, inbox.exhaustivity, inbox.received.count)
        }
        if !isFinished, exhaustivity == .on {
            if pending > 0 {
                Issue.record("\(pending) action(s) sent by effects were not received.", sourceLocation: location)
            }
            let running = engineInbox.runningActionEffectCount
            if running > 0 {
                Issue.record(
                    "\(running) effect(s) are still running at the end of the test. Let them end (advance the test clock, cancel them), or call skipInFlightEffects().",
                    sourceLocation: location)
            }
        }
        engineInbox.cancelAll(ending: true)
    }

    /// How strictly the store checks; may change between steps.
    public var exhaustivity: Exhaustivity {
        get { inbox.lock.withLock { inbox.exhaustivity } }
        set { inbox.lock.withLock { inbox.exhaustivity = newValue } }
    }

    /// The current state.
    public var state: R.State { store.currentState }

    /// The underlying store, for what a step does not cover (subscriptions, derived values).
    public var underlyingStore: MainActorReducerStore<R> { store }

    /// The actions effects sent that have not been received yet.
    public var receivedActions: [R.Action] {
        inbox.lock.withLock { inbox.received }
    }

    /// Sends `action` and checks the state change, as ``TestStore``'s `send` does, and returns
    /// the action's effects as a ``TestStoreTask`` to cancel or wait for.
    ///
    /// ```swift
    /// await store.send(.queryChanged("milk")) { $0.query = "milk" }
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
    public func send(
        _ action: R.Action,
        assert: ((inout R.State) throws -> Void)? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async -> TestStoreTask {
        let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let pending = takeAllReceived()
        if !pending.isEmpty {
            if exhaustivity == .on {
                Issue.record(
                    "Sent \(action) while \(pending.count) action(s) sent by effects had not been received: \(Self.list(pending)). Receive them first (await store.receive(…)), or use exhaustivity .off.",
                    sourceLocation: here)
            } else {
                for action in pending { store.send(action) }
            }
        }
        sends += 1
        let mark = _SendMark(number: sends)
        let engine = store._engine!
        let clock = clock
        engine.markingEffects(mark) { step(action, assert, at: here) }
        await Self.settle(engine, clock)
        return TestStoreTask(
            action: "\(action)",
            cancelEffects: { @MainActor in engine.cancelEffects(marked: mark) },
            runningCount: { @MainActor in engine.runningEffectCount(marked: mark) },
            settle: { @MainActor in await Self.settle(engine, clock) }
        )
    }

    /// Waits for the next action an effect sent, checks that it is `expected`, reduces it and
    /// checks the state change, as ``TestStore``'s `receive` does.
    ///
    /// ```swift
    /// await store.receive(.found(["Milk"])) { $0.results = ["Milk"] }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action an effect must have sent next.
    ///   - assert: Changes the expected state.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    public func receive(
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

    /// Waits for the next action an effect sent that `matches`, reduces it and checks the
    /// state change.
    ///
    /// - Parameters:
    ///   - matches: Whether an action is the one expected.
    ///   - assert: Changes the expected state.
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    public func receive(
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

    private func receive(
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
    public func advance(by duration: Duration) async {
        await clock.advance(by: duration)
    }

    /// Ends the test's use of the store, as ``TestStore``'s `finish` does: fails the test
    /// (exhaustive mode) for each action effects sent that was not received and for effects
    /// still running, not counting the reducer's global inputs (`Reducer.bind()`); then cancels
    /// every effect.
    ///
    /// - Parameters:
    ///   - fileID: The file of the call, where a failure is reported.
    ///   - filePath: The path of that file.
    ///   - line: The line of the call.
    ///   - column: The column of the call.
    public func finish(
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        await Self.settle(store._engine, clock)
        let here = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
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
        if exhaustivity == .on {
            let pending = receivedActions
            if !pending.isEmpty {
                Issue.record(
                    "\(pending.count) action(s) sent by effects were not received: \(Self.list(pending)).",
                    sourceLocation: here)
            }
            let running = engineInbox.runningActionEffectCount
            if running > 0 {
                Issue.record(
                    "\(running) effect(s) are still running at the end of the test. Let them end (advance the test clock, cancel them), or call skipInFlightEffects().",
                    sourceLocation: here)
            }
        }
        inbox.lock.withLock { inbox.isFinished = true }
        store._engine.stop(ending: false)
    }

    /// The rounds of effect actions a non-exhaustive ``finish(fileID:filePath:line:column:)``
    /// reduces at most (an effect that sends again each time it is reduced would never end).
    static var finishRounds: Int { 1_000 }

    /// Reduces the actions effects sent that were not received, without checking them.
    public func skipReceivedActions() async {
        await Self.settle(store._engine, clock)
        for action in takeAllReceived() { store.send(action) }
    }

    /// Cancels every running effect, so the test may end while some would still run.
    public func skipInFlightEffects() async {
        store._engine.stop(ending: false)
    }

    // MARK: Steps

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

    private func takeAllReceived() -> [R.Action] {
        inbox.lock.withLock {
            defer { inbox.received = [] }
            return inbox.received
        }
    }

    private func nextReceived() async -> R.Action? {
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

    /// Whether every running effect task sleeps on the clock (or none runs), and no action
    /// an effect sent waits to come back to the main actor.
    private static func isSettled(_ engine: _MainActorReducerEngine<R>, _ clock: TestClock) -> Bool {
        engine.runningTaskCount <= clock.sleeperCount(ownedBy: ObjectIdentifier(engine)) && !engine.inbox.hasItems
    }

    static func settle(_ engine: _MainActorReducerEngine<R>, _ clock: TestClock) async {
        for _ in 0..<_TestStoreWaiting.checks {
            if isSettled(engine, clock) { return }
            await Task.yield()
        }
    }

    private static func list(_ actions: [R.Action]) -> String {
        actions.map { "\($0)" }.joined(separator: ", ")
    }
}
