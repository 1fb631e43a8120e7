import Testing
import Ripple
import RippleStore
import RippleTesting

/// Effects inside the asynchronous part of a `concat`: each kind still behaves as on its own.
@Suite struct EffectCompositionTests {
    private func store(clock: TestClock, _ effects: @escaping @Sendable (Int) -> Effect<Scripted.Action>) -> TestStore<
        Scripted
    > {
        TestStore(reducer: Scripted(effects: effects), initialState: Scripted.State(), clock: clock)
    }

    private static func after(_ seconds: Int, _ clock: TestClock, send entry: String) -> Effect<Scripted.Action> {
        .run { send in
            try await clock.sleep(for: .seconds(seconds))
            await send(.log(entry))
        }
    }

    @Test func cancellingOneStepOfAConcatLetsTheNextRun() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            if n == 1 { return .cancel(id: "middle") }
            return .concat(
                Self.after(1, clock, send: "first"),
                Self.after(1, clock, send: "middle").cancellable(id: "middle"),
                Self.after(1, clock, send: "last")
            )
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("first")) { $0.log = ["first"] }
        await store.send(.start(1))
        await store.advance(by: .seconds(1))
        await store.receive(.log("last")) { $0.log = ["first", "last"] }
        await store.finish()
    }

    @Test func cancellingAConcatStopsItsLaterSteps() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            if n == 1 { return .cancel(id: "all") }
            return Effect.concat(
                Self.after(1, clock, send: "first"),
                Self.after(1, clock, send: "second")
            )
            .cancellable(id: "all")
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("first")) { $0.log = ["first"] }
        await store.send(.start(1))
        await store.advance(by: .seconds(5))
        await store.finish()
    }

    @Test func aConcatWaitsForACreateToFinish() async {
        let finish = TestingBox<(@Sendable () -> Void)?>(nil)
        let clock = TestClock()
        let store = store(clock: clock) { _ in
            .concat(
                Self.after(1, clock, send: "before"),
                .create { continuation in
                    continuation.send(.log("from create"))
                    finish.value = { continuation.finish() }
                },
                .send(.log("after create"))
            )
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("before")) { $0.log = ["before"] }
        await store.receive(.log("from create")) { $0.log.append("from create") }
        #expect(store.receivedActions.isEmpty)
        finish.value?()
        await store.receive(.log("after create")) { $0.log.append("after create") }
        await store.finish()
    }

    @Test func aMergeInsideAConcatEndsWhenAllItsEffectsEnded() async {
        let clock = TestClock()
        let store = store(clock: clock) { _ in
            .concat(
                Self.after(1, clock, send: "start"),
                .merge(Self.after(2, clock, send: "slow"), Self.after(1, clock, send: "fast")),
                .send(.log("end"))
            )
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("start")) { $0.log = ["start"] }
        await store.advance(by: .seconds(1))
        await store.receive(.log("fast")) { $0.log.append("fast") }
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .seconds(1))
        await store.receive(.log("slow")) { $0.log.append("slow") }
        await store.receive(.log("end")) { $0.log.append("end") }
        await store.finish()
    }

    @Test func debounceAndThrottleInsideAConcat() async {
        let clock = TestClock()
        let store = store(clock: clock) { _ in
            .concat(
                Self.after(1, clock, send: "start"),
                Effect.send(.log("debounced")).debounce(id: "d", for: .seconds(1)),
                Effect.send(.log("throttled")).throttle(id: "t", for: .seconds(1), latest: true)
            )
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("start")) { $0.log = ["start"] }
        await store.advance(by: .seconds(1))
        await store.receive(.log("debounced")) { $0.log.append("debounced") }
        await store.receive(.log("throttled")) { $0.log.append("throttled") }
        await store.finish()
    }

    @Test func cancelInFlightInsideAConcat() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            .concat(
                Self.after(0, clock, send: "go \(n)"),
                Self.after(2, clock, send: "result \(n)").cancellable(id: "search", cancelInFlight: true)
            )
        }
        await store.send(.start(1))
        await store.receive(.log("go 1")) { $0.log = ["go 1"] }
        await store.advance(by: .seconds(1))
        await store.send(.start(2))
        await store.receive(.log("go 2")) { $0.log.append("go 2") }
        await store.advance(by: .seconds(2))
        await store.receive(.log("result 2")) { $0.log.append("result 2") }
        await store.finish()
    }
}
