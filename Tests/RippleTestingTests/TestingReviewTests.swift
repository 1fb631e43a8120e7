import Ripple
import RippleStore
import RippleTesting
import Testing

/// Review of effects through the test store.
@Suite struct TestingReviewTests {
    /// A throttled effect that is a later step of a `concat` runs in the concat's task: it must
    /// stop when its throttle id is cancelled, as it does when it is not in a concat.
    @Test func aThrottledStepOfAConcatStopsWhenItsIDIsCancelled() async {
        let clock = TestClock()
        let store = TestStore(
            reducer: Scripted(effects: { n in
                if n == 1 { return .cancel(id: "t") }
                return .concat(
                    .send(.log("go")),
                    Effect.run { send in
                        try await clock.sleep(for: .seconds(5))
                        await send(.log("late"))
                    }
                    .throttle(id: "t", for: .seconds(1), latest: true)
                )
            }),
            initialState: Scripted.State(),
            clock: clock
        )
        await store.send(.start(0))
        await store.receive(.log("go")) { $0.log = ["go"] }
        await store.send(.start(1))
        await store.advance(by: .seconds(5))
        #expect(store.receivedActions.isEmpty)
        await store.skipReceivedActions()
        await store.finish()
    }
}
