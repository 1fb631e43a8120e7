import Testing
import Ripple
import RippleStore
import RippleTesting

/// Running an effect on its own and collecting what it sends (OneWay's `effect.values`).
@Suite struct EffectValuesTests {
    private func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
        var values: [S.Element] = []
        for try await value in sequence { values.append(value) }
        return values
    }

    @Test func collectsWhatAnEffectSendsInOrderAndEnds() async throws {
        let effect: Effect<Scripted.Action> = .concat(
            .send(.log("a")),
            .run { send in
                await send(.log("b"))
                await send(.log("c"))
            },
            .single { .log("d") }
        )
        #expect(try await collect(effect.values) == [.log("a"), .log("b"), .log("c"), .log("d")])
    }

    @Test func noneSendsNothingAndEnds() async throws {
        #expect(try await collect(Effect<Scripted.Action>.none.values).isEmpty)
    }

    @Test func mergeAndCreateEndWhenAllTheirPartsEnd() async throws {
        let effect: Effect<Scripted.Action> = .merge(
            .send(.log("x")),
            .create { continuation in
                continuation.send(.log("y"))
                continuation.finish()
            }
        )
        let values = try await collect(effect.values)
        #expect(values.count == 2)
        #expect(Set(values.map { "\($0)" }) == ["log(\"x\")", "log(\"y\")"])
    }

    @Test func eachIteratorRunsTheEffectAgain() async throws {
        let runs = TestingBox(0)
        let effect: Effect<Scripted.Action> = .run { send in
            runs.update { $0 += 1 }
            await send(.log("once"))
        }
        let values = effect.values
        #expect(try await collect(values) == [.log("once")])
        #expect(try await collect(values) == [.log("once")])
        #expect(runs.value == 2)
    }

    @Test func aDebouncedEffectWaitsOnTheGivenClock() async throws {
        let clock = TestClock()
        let effect = Effect<Scripted.Action>.send(.log("late")).debounce(id: "d", for: .seconds(1))
        let collected = Task { try await collect(effect.values(clock: clock)) }
        // Bounded: the debounce sleeps on the clock once the iteration started it.
        for _ in 0..<10_000 where clock.sleeperCount == 0 { await Task.yield() }
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(try await collected.value == [.log("late")])
    }

    @Test func anEffectCancelledInsideStopsSending() async throws {
        let effect: Effect<Scripted.Action> = .merge(
            .run { _ in try await Task.sleep(for: .seconds(3_600)) }.cancellable(id: "long"),
            .cancel(id: "long"),
            .send(.log("done"))
        )
        #expect(try await collect(effect.values) == [.log("done")])
    }

    @Test func anErrorWithoutAHandlerEndsTheSequenceWithIt() async throws {
        let effect: Effect<Scripted.Action> = .run { send in
            await send(.log("before"))
            throw TestingFailure()
        }
        var received: [Scripted.Action] = []
        await #expect(throws: TestingFailure.self) {
            for try await action in effect.values { received.append(action) }
        }
        #expect(received == [.log("before")])
    }
}
