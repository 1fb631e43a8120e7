import Testing
import Ripple
import RippleStore
import RippleTesting

/// `await store.expect(\.keyPath, value)` on a live store (OneWay's `Store.expect`): waits
/// until the state matches, fails the test once the timeout passes on the given clock.
@Suite struct StoreExpectTests {
    /// A counter whose `.load` waits a second on `clock` before it sends `.loaded(42)`.
    struct Delayed: Reducer {
        struct State: Equatable { var number = 0 }
        enum Action: Equatable, Sendable { case increment, load, loaded(Int) }
        let clock: TestClock

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .increment: state.number += 1; return .none
            case .load:
                let clock = clock
                return .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.loaded(42))
                }
            case .loaded(let n): state.number = n; return .none
            }
        }
    }

    /// Yields until `clock` has `count` sleepers (bounded by a number of checks).
    private func waitForSleepers(_ clock: TestClock, _ count: Int) async {
        for _ in 0..<10_000 where clock.sleeperCount < count { await Task.yield() }
    }

    @Test func returnsAtOnceWhenTheStateAlreadyMatches() async {
        let timeoutClock = TestClock()
        let store = ReducerStore(reducer: Delayed(clock: TestClock()), initialState: .init(number: 3))
        await store.expect(\.number, 3, clock: timeoutClock)
        #expect(timeoutClock.sleeperCount == 0)
    }

    @Test func waitsUntilAnEffectMakesTheStateMatch() async {
        let effectClock = TestClock()
        let timeoutClock = TestClock()
        let store = ReducerStore(reducer: Delayed(clock: effectClock), initialState: .init())
        store.send(.load)
        let waiting = Task { await store.expect(\.number, 42, timeout: .seconds(5), clock: timeoutClock) }
        await waitForSleepers(effectClock, 1)
        await waitForSleepers(timeoutClock, 1)
        #expect(store.currentState.number == 0)
        await effectClock.advance(by: .seconds(1))
        await waiting.value
        #expect(store.currentState.number == 42)
        // The timeout's sleep was cancelled when the state matched.
        #expect(timeoutClock.sleeperCount == 0)
    }

    @Test func failsWithTheLastValueOnceTheTimeoutPasses() async {
        let timeoutClock = TestClock()
        let store = ReducerStore(reducer: Delayed(clock: TestClock()), initialState: .init())
        store.send(.increment)
        await withKnownIssue {
            let advancing = Task {
                await waitForSleepers(timeoutClock, 1)
                await timeoutClock.advance(by: .seconds(2))
            }
            await store.expect(\.number, 5, timeout: .seconds(2), clock: timeoutClock)
            await advancing.value
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("5") && text.contains("is 1") && text.contains("2")
        }
    }

    @Test func doesNotFailBeforeTheTimeout() async {
        let timeoutClock = TestClock()
        let store = ReducerStore(reducer: Delayed(clock: TestClock()), initialState: .init())
        let waiting = Task { await store.expect(\.number, 1, timeout: .seconds(2), clock: timeoutClock) }
        await waitForSleepers(timeoutClock, 1)
        await timeoutClock.advance(by: .milliseconds(1_999))
        store.send(.increment)
        await waiting.value
    }

    @Test @MainActor func worksOnAMainActorReducerStore() async {
        let timeoutClock = TestClock()
        let store = MainActorReducerStore(reducer: Delayed(clock: TestClock()), initialState: .init())
        let waiting = Task { @MainActor in await store.expect(\.number, 1, clock: timeoutClock) }
        await waitForSleepers(timeoutClock, 1)
        store.send(.increment)
        await waiting.value
    }
}
