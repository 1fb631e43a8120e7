import Testing
@testable import Ripple

/// A reaction whose body writes a value it reads re-triggers itself. On one thread a delivery
/// bounds that loop by its rounds (`OrderingTests.runawayMessage`); a reaction bound to an
/// actor starts a delivery of its own on every run, so the loop is counted on the reaction.
@Suite("Runaway reactions across executor hops")
struct RunawayTests {
    @Test("a reaction on an actor that keeps re-triggering itself stops with a message naming it")
    func runawayOnActor() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                actor Loop {}
                let value = Stored(0)
                let (ended, end) = AsyncStream<Void>.makeStream()
                // Bounded, so that without the check the process ends normally (and the test fails).
                let loop = observe(on: Loop()) { _ in
                    if value.value < 2 * _Graph.maximumRounds { value.value += 1 } else { end.yield() }
                }
                var iterator = ended.makeAsyncIterator()
                _ = await iterator.next()
                loop.cancel()
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("runaway reaction"))
        #expect(message.contains("re-triggered itself"))
        #expect(message.contains("RunawayTests.swift"))
    }

    @Test("a run triggered by another write starts the count again")
    func countResetsOnAnotherTrigger() async {
        await #expect(processExitsWith: .success) {
            actor Loop {}
            let limit = _Graph.maximumRounds
            let value = Stored(0)
            let phase = Stored(0)
            let (reached, reach) = AsyncStream<Int>.makeStream()
            // Half the limit of self-triggered runs, then an outside write, then 90% of it:
            // more than the limit in all, but never in a row.
            let loop = observe(on: Loop()) { _ in
                let target = phase.value == 0 ? limit / 2 : limit / 2 + limit * 9 / 10
                if value.value < target { value.value += 1 } else { reach.yield(value.value) }
            }
            for await reachedValue in reached {
                if reachedValue == limit / 2 {
                    phase.value = 1
                } else {
                    break
                }
            }
            loop.cancel()
        }
    }
}
