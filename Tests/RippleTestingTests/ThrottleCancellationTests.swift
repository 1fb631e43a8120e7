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
