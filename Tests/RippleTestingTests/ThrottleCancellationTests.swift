import Ripple
import RippleStore
import RippleTesting
import Testing

/// A throttled effect held with `latest: true` is cancelled by its own ids, not by the ids of
/// the effect it replaced, and the test store's `cancel()` of its action drops it.
@Suite struct ThrottleCancellationTests {
    private struct Scroller: Reducer {
        struct State: Equatable { var loaded: [Int] = [] }
        enum Action: Equatable, Sendable { case scrolled(Int), load(Int), stop(Int) }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .scrolled(let n):
                return Effect.send(.load(n)).throttle(id: "scroll", for: .seconds(1), latest: true).cancellable(id: n)
            case .load(let n):
                state.loaded.append(n)
                return .none
            case .stop(let n):
                return .cancel(id: n)
            }
        }
    }

    @Test("cancelling the held effect that replaced another drops it")
    func cancellingTheReplacingHeldEffectDropsIt() async {
        let store = TestStore(reducer: Scroller(), initialState: Scroller.State())
        await store.send(.scrolled(1))
        await store.receive(.load(1)) { $0.loaded = [1] }
        await store.send(.scrolled(2))  // held
        await store.send(.scrolled(3))  // replaces 2 as the held effect
        await store.send(.stop(3))
        await store.advance(by: .seconds(1))
        #expect(store.receivedActions == [])
        await store.skipReceivedActions()
        await store.skipInFlightEffects()
        await store.finish()
    }

    @Test("a held effect that is replaced leaves no timer behind: one sleeps per window")
    func replacedHeldEffectsLeaveNoTimers() async {
        let store = TestStore(reducer: Scroller(), initialState: Scroller.State())
        await store.send(.scrolled(1))
        await store.receive(.load(1)) { $0.loaded = [1] }
        for n in 2...6 { await store.send(.scrolled(n)) }
        #expect(store.clock.sleeperCount == 1, "the timer of the held .scrolled(6) only")
        await store.advance(by: .seconds(1))
        await store.receive(.load(6)) { $0.loaded = [1, 6] }
        await store.finish()
    }

    @Test("on the main actor too, a replaced held effect leaves no timer behind")
    @MainActor
    func replacedHeldEffectsLeaveNoTimersOnTheMainActor() async {
        let store = MainActorTestStore(reducer: Scroller(), initialState: Scroller.State())
        await store.send(.scrolled(1))
        await store.receive(.load(1)) { $0.loaded = [1] }
        for n in 2...6 { await store.send(.scrolled(n)) }
        #expect(store.clock.sleeperCount == 1, "the timer of the held .scrolled(6) only")
        await store.clock.advance(by: .seconds(1))
        await store.receive(.load(6)) { $0.loaded = [1, 6] }
        await store.finish()
    }

    @Test("a held effect its timer started keeps running when the next window holds another")
    func firedTimerIsNotCancelledByTheNextWindow() async {
        struct Slow: Reducer {
            let clock: TestClock
            struct State: Equatable { var loaded: [Int] = [] }
            enum Action: Equatable, Sendable { case scrolled(Int), load(Int) }
            func reduce(into state: inout State, action: Action) -> Effect<Action> {
                switch action {
                case .scrolled(let n):
                    // Runs for 5 s: longer than the window.
                    return Effect.run { [clock] send in
                        try await clock.sleep(for: .seconds(5))
                        await send(.load(n))
                    }
                    .throttle(id: "scroll", for: .seconds(1), latest: true)
                case .load(let n):
                    state.loaded.append(n)
                    return .none
                }
            }
        }
        let clock = TestClock()
        let store = TestStore(reducer: Slow(clock: clock), initialState: Slow.State(), clock: clock)
        await store.send(.scrolled(1))  // starts, opens the window
        await store.send(.scrolled(2))  // held
        await store.advance(by: .seconds(1))  // the window closes: 2 starts, in its timer's task
        await store.send(.scrolled(3))  // held in the next window, with a timer of its own
        await store.advance(by: .seconds(1))  // 3 starts
        await store.advance(by: .seconds(5))
        await store.receive(.load(1)) { $0.loaded = [1] }
        await store.receive(.load(2)) { $0.loaded = [1, 2] }
        await store.receive(.load(3)) { $0.loaded = [1, 2, 3] }
        await store.finish()
    }

    @Test("cancelling the id of the replaced effect keeps the held one")
    func cancellingTheReplacedIDKeepsTheHeldEffect() async {
        let store = TestStore(reducer: Scroller(), initialState: Scroller.State())
        await store.send(.scrolled(1))
        await store.receive(.load(1)) { $0.loaded = [1] }
        await store.send(.scrolled(2))
        await store.send(.scrolled(3))
        await store.send(.stop(2))
        await store.advance(by: .seconds(1))
        #expect(store.receivedActions == [.load(3)])
        await store.skipReceivedActions()
        await store.skipInFlightEffects()
        await store.finish()
    }

    @Test("the test store's cancel() of an action drops the effect it holds in a throttle")
    func testStoreTaskCancelDropsTheHeldEffect() async {
        struct Plain: Reducer {
            struct State: Equatable { var loaded: [Int] = [] }
            enum Action: Equatable, Sendable { case scrolled(Int), load(Int) }
            func reduce(into state: inout State, action: Action) -> Effect<Action> {
                switch action {
                case .scrolled(let n):
                    return Effect.send(.load(n)).throttle(id: "scroll", for: .seconds(1), latest: true)
                case .load(let n):
                    state.loaded.append(n)
                    return .none
                }
            }
        }
        let store = TestStore(reducer: Plain(), initialState: Plain.State())
        await store.send(.scrolled(1))
        await store.receive(.load(1)) { $0.loaded = [1] }
        await store.send(.scrolled(2))
        let third = await store.send(.scrolled(3))
        await third.cancel()
        await store.advance(by: .seconds(1))
        #expect(store.receivedActions == [])
        await store.skipReceivedActions()
        await store.skipInFlightEffects()
        await store.finish()
    }
}
