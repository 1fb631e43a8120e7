import Testing
import Ripple
import RippleStore
import RippleTesting

/// Each effect, through the test store: what it sends, in which order, and when.
@Suite struct EffectTests {
    private func store(clock: TestClock = TestClock(), _ effects: @escaping @Sendable (Int) -> Effect<Scripted.Action>)
        -> TestStore<Scripted>
    {
        TestStore(reducer: Scripted(effects: effects), initialState: Scripted.State(), clock: clock)
    }

    @Test func noneDoesNothing() async {
        let store = store { _ in .none }
        await store.send(.start(0))
        await store.finish()
    }

    @Test func concatRunsEachStepAfterTheOneBefore() async {
        let clock = TestClock()
        let store = store(clock: clock) { _ in
            .concat(
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.log("a"))
                },
                .send(.log("b")),
                .run { send in await send(.log("c")) }
            )
        }
        await store.send(.start(0))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .seconds(1))
        await store.receive(.log("a")) { $0.log = ["a"] }
        await store.receive(.log("b")) { $0.log = ["a", "b"] }
        await store.receive(.log("c")) { $0.log = ["a", "b", "c"] }
        await store.finish()
    }

    @Test func mergeRunsTogether() async {
        let clock = TestClock()
        let store = store(clock: clock) { _ in
            .merge(
                .run { send in
                    try await clock.sleep(for: .seconds(2))
                    await send(.log("slow"))
                },
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.log("fast"))
                }
            )
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(2))
        // Both ran at once: the fast one finished first.
        await store.receive(.log("fast")) { $0.log = ["fast"] }
        await store.receive(.log("slow")) { $0.log = ["fast", "slow"] }
        await store.finish()
    }

    @Test func theBuilderTakesConditionsOptionalsAndLoops() async {
        let store = store { n in
            let optional: Effect<Scripted.Action>? = n > 1 ? .send(.log("optional")) : nil
            return .concat {
                Effect.send(.log("first"))
                if n > 0 {
                    Effect.send(.log("if"))
                } else {
                    Effect.send(.log("else"))
                }
                optional
                for i in 0..<n { Effect.send(.log("loop \(i)")) }
            }
        }
        await store.send(.start(2))
        for (index, entry) in ["first", "if", "optional", "loop 0", "loop 1"].enumerated() {
            await store.receive(.log(entry)) {
                $0.log = Array(["first", "if", "optional", "loop 0", "loop 1"].prefix(index + 1))
            }
        }
        await store.send(.start(0))
        await store.receive(.log("first")) { $0.log.append("first") }
        await store.receive(.log("else")) { $0.log.append("else") }
        await store.finish()
    }

    @Test func mergeBuilder() async {
        let store = store { _ in
            .merge {
                Effect.send(.log("a"))
                Effect.send(.log("b"))
            }
        }
        await store.send(.start(0))
        await store.receive(.log("a")) { $0.log = ["a"] }
        await store.receive(.log("b")) { $0.log = ["a", "b"] }
        await store.finish()
    }

    @Test func cancelStopsAnEffectAndDropsItsLaterSends() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            if n == 1 { return .cancel(id: "timer") }
            return .run { send in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    await send(.log("tick"))
                }
            }
            .cancellable(id: "timer")
        }
        await store.send(.start(0))
        await store.advance(by: .seconds(1))
        await store.receive(.log("tick")) { $0.log = ["tick"] }
        await store.send(.start(1))
        await store.advance(by: .seconds(5))
        #expect(store.receivedActions.isEmpty)
        await store.finish()
    }

    @Test func aCancelledEffectThatKeepsGoingSendsNothing() async {
        let gate = TestingBox<CheckedContinuation<Void, Never>?>(nil)
        let reachedSend = TestingBox(false)
        let store = store { n in
            if n == 1 { return .cancel(id: "stubborn") }
            return .run { send in
                // Ignores cancellation: waits on something that is not cancellable.
                await withCheckedContinuation { gate.value = $0 }
                reachedSend.value = true
                await send(.log("too late"))
            }
            .cancellable(id: "stubborn")
        }
        await store.send(.start(0))
        await store.send(.start(1))
        while gate.value == nil { await Task.yield() }
        gate.value?.resume()
        while !reachedSend.value { await Task.yield() }
        await store.finish()
        #expect(store.receivedActions.isEmpty)
    }

    @Test func cancelInFlightReplacesTheRunningEffect() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            .run { send in
                try await clock.sleep(for: .seconds(1))
                await send(.log("result \(n)"))
            }
            .cancellable(id: "search", cancelInFlight: true)
        }
        await store.send(.start(1))
        await store.advance(by: .milliseconds(500))
        await store.send(.start(2))
        await store.advance(by: .seconds(1))
        await store.receive(.log("result 2")) { $0.log = ["result 2"] }
        await store.finish()
    }

    @Test func withoutCancelInFlightBothRun() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            .run { send in
                try await clock.sleep(for: .seconds(1))
                await send(.log("result \(n)"))
            }
            .cancellable(id: "search")
        }
        await store.send(.start(1))
        await store.advance(by: .milliseconds(500))
        await store.send(.start(2))
        await store.advance(by: .seconds(1))
        await store.receive(.log("result 1")) { $0.log = ["result 1"] }
        await store.receive(.log("result 2")) { $0.log = ["result 1", "result 2"] }
        await store.finish()
    }

    @Test func debounceRunsOnlyTheLastAfterAQuietPeriod() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            Effect.send(.log("search \(n)")).debounce(id: "search", for: .milliseconds(300))
        }
        await store.send(.start(1))
        await store.advance(by: .milliseconds(200))
        await store.send(.start(2))
        await store.advance(by: .milliseconds(200))
        await store.send(.start(3))
        await store.advance(by: .milliseconds(299))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .milliseconds(1))
        await store.receive(.log("search 3")) { $0.log = ["search 3"] }
        await store.finish()
    }

    @Test func throttleLatestRunsTheFirstAtOnceAndTheLatestAtTheWindowsEnd() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            Effect.send(.log("\(n)")).throttle(id: "scroll", for: .seconds(1), latest: true)
        }
        await store.send(.start(1))
        await store.receive(.log("1")) { $0.log = ["1"] }
        await store.send(.start(2))
        await store.send(.start(3))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .seconds(1))
        await store.receive(.log("3")) { $0.log = ["1", "3"] }
        // A new window opened when 3 ran: 4 waits for it.
        await store.send(.start(4))
        await store.advance(by: .milliseconds(999))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .milliseconds(1))
        await store.receive(.log("4")) { $0.log = ["1", "3", "4"] }
        // After a quiet window, the next one runs at once.
        await store.advance(by: .seconds(5))
        await store.send(.start(5))
        await store.receive(.log("5")) { $0.log = ["1", "3", "4", "5"] }
        await store.finish()
    }

    @Test func throttleFirstKeepsTheFirstHeldEffect() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            Effect.send(.log("\(n)")).throttle(id: "scroll", for: .seconds(1), latest: false)
        }
        await store.send(.start(1))
        await store.receive(.log("1")) { $0.log = ["1"] }
        await store.send(.start(2))
        await store.send(.start(3))
        await store.advance(by: .seconds(1))
        await store.receive(.log("2")) { $0.log = ["1", "2"] }
        await store.advance(by: .seconds(1))
        await store.finish()
    }

    /// OneWay's `throttle(id:for:)` (its `latest: false`): a double-tap guard. Sends at 0,
    /// 0.5 s and 1.5 s with a 1 s window run at 0 and 1.5 s; the one at 0.5 s is dropped.
    @Test func throttleWithoutLatestDropsWhatArrivesInsideTheWindow() async {
        let clock = TestClock()
        let store = store(clock: clock) { n in
            Effect.send(.log("\(n)")).throttle(id: "tap", for: .seconds(1))
        }
        await store.send(.start(1))
        await store.receive(.log("1")) { $0.log = ["1"] }
        await store.advance(by: .milliseconds(500))
        await store.send(.start(2))
        #expect(store.receivedActions.isEmpty)
        // The window closes at 1 s with nothing held: nothing runs then.
        await store.advance(by: .milliseconds(500))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .milliseconds(500))
        await store.send(.start(3))
        await store.receive(.log("3")) { $0.log = ["1", "3"] }
        // A send inside the new window is dropped as well.
        await store.advance(by: .milliseconds(999))
        await store.send(.start(4))
        await store.advance(by: .seconds(2))
        #expect(store.receivedActions.isEmpty)
        await store.finish()
    }

    @Test func createSendsFromACallbackUntilFinished() async {
        let callback = TestingBox<(@Sendable (String) -> Void)?>(nil)
        let finish = TestingBox<(@Sendable () -> Void)?>(nil)
        let terminated = TestingBox(0)
        let store = store { _ in
            .create { continuation in
                callback.value = { continuation.send(.log($0)) }
                finish.value = { continuation.finish() }
                continuation.onTermination { terminated.update { $0 += 1 } }
            }
        }
        await store.send(.start(0))
        callback.value?("one")
        callback.value?("two")
        await store.receive(.log("one")) { $0.log = ["one"] }
        await store.receive(.log("two")) { $0.log = ["one", "two"] }
        finish.value?()
        callback.value?("dropped")
        #expect(terminated.value == 1)
        await store.finish()
        #expect(store.receivedActions.isEmpty)
    }

    @Test func aCancelledCreateRunsItsTerminationHandler() async {
        let terminated = TestingBox(0)
        let store = store { n in
            if n == 1 { return .cancel(id: "source") }
            return Effect<Scripted.Action>.create { continuation in
                continuation.onTermination { terminated.update { $0 += 1 } }
            }
            .cancellable(id: "source")
        }
        await store.send(.start(0))
        #expect(terminated.value == 0)
        await store.send(.start(1))
        #expect(terminated.value == 1)
        await store.finish()
    }

    @Test func sequenceSendsEveryElementInOrder() async {
        let store = store { _ in
            .sequence(
                AsyncStream { continuation in
                    for entry in ["a", "b", "c"] { continuation.yield(Scripted.Action.log(entry)) }
                    continuation.finish()
                })
        }
        await store.send(.start(0))
        await store.receive(.log("a")) { $0.log = ["a"] }
        await store.receive(.log("b")) { $0.log = ["a", "b"] }
        await store.receive(.log("c")) { $0.log = ["a", "b", "c"] }
        await store.finish()
    }

    @Test func singleSendsItsValue() async {
        let store = store { _ in .single { .log("single") } }
        await store.send(.start(0))
        await store.receive(.log("single")) { $0.log = ["single"] }
        await store.finish()
    }

    @Test func aCatchHandlerTurnsAnErrorIntoAnAction() async {
        let store = store { _ in
            .run { _ in
                throw TestingFailure()
            } catch: { error, send in
                await send(.log("failed: \(error is TestingFailure)"))
            }
        }
        await store.send(.start(0))
        await store.receive(.log("failed: true")) { $0.log = ["failed: true"] }
        await store.finish()
    }

    @Test func anUnhandledErrorGoesToTheStoresHandler() async {
        let reported = TestingBox<[String]>([])
        let store = ReducerStore(
            reducer: Scripted { _ in .run { _ in throw TestingFailure() } },
            initialState: Scripted.State(),
            onEffectError: { error in reported.update { $0.append("\(error)") } }
        )
        store.send(.start(0))
        while reported.value.isEmpty { await Task.yield() }
        #expect(reported.value == ["TestingFailure()"])
    }

    @Test func mapTransformsEveryAction() async {
        let clock = TestClock()
        let inner: Effect<String> = .merge(
            .send("now"),
            .run { send in
                try await clock.sleep(for: .seconds(1))
                await send("later")
            },
            .run { _ in
                throw TestingFailure()
            } catch: { _, send in
                await send("caught")
            }
        )
        let store = store(clock: clock) { _ in inner.map { Scripted.Action.log("mapped \($0)") } }
        await store.send(.start(0))
        await store.receive(.log("mapped now")) { $0.log = ["mapped now"] }
        await store.receive(.log("mapped caught")) { $0.log.append("mapped caught") }
        await store.advance(by: .seconds(1))
        await store.receive(.log("mapped later")) { $0.log.append("mapped later") }
        await store.finish()
    }
}
