import Testing
import Ripple
import RippleStore
import RippleTesting

/// A timer that ticks every second until stopped, and a job that ends on its own.
private struct Timer: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable, Sendable { case start, tick, job, jobDone, chained }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
            let clock = clock
            return .run { send in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    await send(.tick)
                }
            }
        case .tick:
            state.ticks += 1
            return .none
        case .job:
            return .run { send in
                for _ in 0..<5 { await Task.yield() }
                await send(.jobDone)
            }
        case .jobDone:
            return .none
        case .chained:
            // A first step that ends, then a cancellable step started from inside the effect's
            // own task: both are this send's effects.
            let clock = clock
            return .concat(
                .run { _ in await Task.yield() },
                .run { send in
                    try await clock.sleep(for: .seconds(10))
                    await send(.tick)
                }.cancellable(id: "inner")
            )
        }
    }
}

/// `send` returns a task for the effects of the action it sent (TCA's `TestStoreTask`).
@Suite struct TestStoreTaskTests {
    @Test func cancellingTheTaskStopsALongLivingEffect() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.start)
        await clock.advance(by: .seconds(1))
        await store.receive(.tick) { $0.ticks = 1 }
        #expect(!task.isCancelled)
        await task.cancel()
        #expect(task.isCancelled)
        await clock.advance(by: .seconds(5))
        #expect(store.receivedActions.isEmpty)
        await store.finish()
    }

    @Test func cancellingOneSendsTaskLeavesTheOthers() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let first = await store.send(.start)
        let second = await store.send(.start)
        await first.cancel()
        await clock.advance(by: .seconds(1))
        await store.receive(.tick) { $0.ticks = 1 }
        #expect(store.receivedActions.isEmpty)
        await second.cancel()
        await store.finish()
    }

    @Test func cancellingReachesEffectsStartedLaterFromTheSameSend() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.chained)
        #expect(clock.sleeperCount == 1)
        await task.cancel()
        await clock.advance(by: .seconds(10))
        await store.finish()
    }

    @Test func finishWaitsForTheEffectsToEnd() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.job)
        await task.finish()
        await store.receive(.jobDone)
        await store.finish()
    }

    @Test func finishFailsWhileAnEffectStillWaitsOnTheClock() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.start)
        await withKnownIssue {
            await task.finish()
        } matching: { issue in
            String(describing: issue).contains("still running")
        }
        await task.cancel()
        await store.finish()
    }

    @Test func aTaskWithNoEffectIsFinishedAtOnce() async {
        let clock = TestClock()
        let store = TestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.tick) { $0.ticks = 1 }
        await task.finish()
        await store.finish()
    }

    @Test @MainActor func theMainActorTestStoreReturnsATaskToo() async {
        let clock = TestClock()
        let store = MainActorTestStore(reducer: Timer(clock: clock), initialState: .init(), clock: clock)
        let task = await store.send(.start)
        await clock.advance(by: .seconds(1))
        await store.receive(.tick) { $0.ticks = 1 }
        await task.cancel()
        #expect(task.isCancelled)
        await clock.advance(by: .seconds(5))
        await store.finish()

        let job = await store.send(.job)
        await job.finish()
        await store.receive(.jobDone)
        await store.finish()
    }
}
