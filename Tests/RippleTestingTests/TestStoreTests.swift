import Testing
import RippleStore
@testable import RippleTesting

@Suite struct TestStoreTests {
    @Test func sendAssertsTheExactStateChange() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await store.send(.increment) { $0.number = 1 }
        await store.send(.decrement) { $0.number = 0 }
        #expect(store.state.number == 0)
        await store.finish()
    }

    @Test func anUnassertedChangeFails() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await withKnownIssue {
            await store.send(.increment)
        }
        await withKnownIssue {
            await store.send(.increment) { $0.number = 5 }
        }
        await store.finish()
    }

    @Test func synchronousEffectActionsAreReceivedInOrder() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await store.send(.twice)
        #expect(store.receivedActions == [.increment, .increment])
        await store.receive(.increment) { $0.number = 1 }
        await store.receive(.increment) { $0.number = 2 }
        await store.finish()
    }

    @Test func asynchronousEffectActionsAreReceived() async {
        let store = TestStore(reducer: Counter(fetch: { 7 }), initialState: Counter.State())
        await store.send(.load)
        await store.receive(.loaded(7)) { $0.number = 7 }
        await store.finish()
    }

    @Test func receivingTheWrongActionFails() async {
        let store = TestStore(reducer: Counter(fetch: { 7 }), initialState: Counter.State())
        await store.send(.load)
        await withKnownIssue {
            await store.receive(.loaded(8)) { $0.number = 7 }
        }
        await store.finish()
    }

    @Test func receivingWhenNothingComesFails() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await store.send(.increment) { $0.number = 1 }
        await withKnownIssue {
            await store.receive(.increment)
        }
        await store.finish()
    }

    @Test func sendingWithUnreceivedActionsFails() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await store.send(.twice)
        await withKnownIssue {
            await store.send(.decrement) { $0.number = -1 }
        }
        await store.finish()
    }

    @Test func unreceivedActionsFailAtTheEnd() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        await store.send(.twice)
        await withKnownIssue {
            await store.finish()
        }
    }

    @Test func unreceivedActionsFailWhenTheStoreIsReleasedWithoutFinish() async {
        await withKnownIssue {
            let store = TestStore(reducer: Counter(), initialState: Counter.State())
            await store.send(.twice)
        }
    }

    @Test func effectsStillRunningFailAtTheEnd() async {
        let clock = TestClock()
        let store = TestStore(
            reducer: Scripted { _ in
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.log("late"))
                }
            }, initialState: Scripted.State(), clock: clock)
        await store.send(.start(0))
        await withKnownIssue {
            await store.finish()
        }
    }

    @Test func skippingInFlightEffectsEndsCleanly() async {
        let clock = TestClock()
        let store = TestStore(
            reducer: Scripted { _ in
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.log("late"))
                }
            }, initialState: Scripted.State(), clock: clock)
        await store.send(.start(0))
        await store.skipInFlightEffects()
        await store.finish()
    }

    @Test func timeIsDrivenByTheTestClock() async {
        let clock = TestClock()
        let store = TestStore(
            reducer: Scripted { _ in
                .run { send in
                    try await clock.sleep(for: .seconds(10))
                    await send(.log("after 10 s"))
                }
            }, initialState: Scripted.State(), clock: clock)
        await store.send(.start(0))
        await store.advance(by: .seconds(9))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .seconds(1))
        await store.receive(.log("after 10 s")) { $0.log = ["after 10 s"] }
        await store.finish()
    }

    @Test func nonExhaustiveStoresCheckOnlyWhatIsAsserted() async {
        let store = TestStore(reducer: Counter(fetch: { 3 }), initialState: Counter.State(), exhaustivity: .off)
        await store.send(.twice)
        // The two increments are reduced as a real store would, before the next step.
        await store.send(.increment) { $0.number = 3 }
        await store.send(.load)
        await store.receive(.loaded(3))
        await store.send(.twice)
        // finish() reduces the two increments still waiting, as a real store would have.
        await store.finish()
        #expect(store.state.number == 5)
    }

    @Test func nonExhaustiveAssertionsStillFailOnAWrongValue() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State(), exhaustivity: .off)
        await withKnownIssue {
            await store.send(.increment) { $0.number = 2 }
        }
        await store.finish()
    }

    @Test func unhandledEffectErrorsFailTheTest() async {
        let store = TestStore(reducer: Counter(fetch: { throw TestingFailure() }), initialState: Counter.State())
        await withKnownIssue {
            await store.send(.load)
            await store.finish()
        }
    }

    @Test func theDifferenceNamesTheChangedLines() {
        let difference = _stateDifference(Counter.State(number: 1), Counter.State(number: 2))
        #expect(difference.contains("− "))
        #expect(difference.contains("1"))
        #expect(difference.contains("+ "))
        #expect(difference.contains("2"))
    }
}

/// A review found a test store counting every sleeper on its clock as one of its effects: with
/// a timer asleep on the same clock, `receive` stopped waiting while an effect still worked
/// ("no action was received: 1 effect(s) are still running"), a false failure.
@Suite("Test stores and other sleepers on their clock")
struct TestStoreOtherSleepersTests {
    /// An effect that does asynchronous work off the clock before it sends.
    static func slowLog(_ n: Int) -> Effect<Scripted.Action> {
        .run { send in
            for _ in 0..<50 { await Task.yield() }
            await send(.log("done"))
        }
    }

    /// A task asleep on `clock` for a minute, asleep before this returns.
    static func sleeper(on clock: TestClock) async -> Task<Void, Never> {
        let timer = Task<Void, Never> { try? await clock.sleep(for: .seconds(60)) }
        for _ in 0..<10_000 where clock.sleeperCount == 0 { await Task.yield() }
        return timer
    }

    @Test("receive waits for an effect that works off the clock while a timer sleeps on it")
    func testStore() async {
        let clock = TestClock()
        let timer = await Self.sleeper(on: clock)
        #expect(clock.sleeperCount == 1)
        let store = TestStore(reducer: Scripted(effects: Self.slowLog), initialState: .init(), clock: clock)
        await store.send(.start(1))
        await store.receive(.log("done")) { $0.log = ["done"] }
        timer.cancel()
        await store.finish()
    }

    @MainActor @Test("a main-actor test store's receive waits for it too")
    func mainActorTestStore() async {
        let clock = TestClock()
        let timer = await Self.sleeper(on: clock)
        #expect(clock.sleeperCount == 1)
        let store = MainActorTestStore(reducer: Scripted(effects: Self.slowLog), initialState: .init(), clock: clock)
        await store.send(.start(1))
        await store.receive(.log("done")) { $0.log = ["done"] }
        timer.cancel()
        await store.finish()
    }
}
