import Observation
import Testing
@testable import Ripple

/// A main-actor model: plain main-actor state next to Ripple values, no `@unchecked`.
@MainActor
final class Basket {
    let prices = Stored([1, 2, 3])
    /// Plain main-actor state (not tracked): read by the derivation, which may touch it.
    var currency = "€"
    var evaluations = 0

    lazy var total = MainActorComputed(owner: self) { basket in
        basket.evaluations += 1
        return basket.prices.value.reduce(0, +)
    }
    lazy var label = MainActorComputed(owner: self) { basket in
        "\(basket.total.value) \(basket.currency)"
    }
}

@Suite("Computed values on the main actor")
@MainActor
struct MainActorComputedTests {
    @Test("derives from main-actor state, lazily, cached, and tracks what it reads")
    func derivesOnMainActor() {
        let basket = Basket()
        #expect(basket.evaluations == 0)
        #expect(basket.label.value == "6 €")
        #expect(basket.total.value == 6)
        #expect(basket.evaluations == 1)
        #expect(basket.total.value == 6)
        #expect(basket.evaluations == 1, "cached")
        basket.prices.value.append(4)
        #expect(basket.label.value == "10 €")
        #expect(basket.total.value == 10)
        #expect(basket.evaluations == 2, "once per write")
    }

    @Test("the closure forms: a non-Sendable capture, an equality, and a type that is not Equatable")
    func closureForms() {
        final class Scale { var factor = 2 }  // neither Sendable nor isolated
        let scale = Scale()
        let source = Stored(3)
        let scaled = MainActorComputed { source.value * scale.factor }
        let parity = MainActorComputed(equals: { $0 % 2 == $1 % 2 }) { source.value }
        let boxed = MainActorComputed { [source.value] }
        #expect(scaled.value == 6)
        #expect(parity.value == 3)
        #expect(boxed.value == [3])
        source.value = 5
        #expect(scaled.value == 10)
        #expect(parity.value == 3, "cut off by the equality passed")
        #expect(boxed.value == [5])
        #expect(scaled.description.hasPrefix("MainActorComputed(RippleTests/MainActorComputedTests.swift:"))
    }

    @Test("an observeOnMainActor reaction depends on it, and equal values are cut off")
    func reactionTracksIt() {
        let count = Stored(1)
        let isEven = MainActorComputed { count.value % 2 == 0 }
        let log = MainActorLog()
        let subscription = observeOnMainActor { log.entries.append("\(isEven.value)") }
        count.value = 2
        count.value = 4
        count.value = 5
        #expect(log.entries == ["false", "true", "false"])
        subscription.cancel()
    }

    @Test("a write on another thread is seen by the next read on the main actor")
    func writeFromAnotherThread() async {
        let basket = Basket()
        #expect(basket.total.value == 6)
        await Task.detached { basket.prices.value = [10] }.value
        #expect(basket.total.value == 10)
    }

    @Test("inside a batch on the main thread it sees the batch's writes")
    func insideBatch() {
        let basket = Basket()
        #expect(basket.total.value == 6)
        batch {
            basket.prices.value = [7]
            #expect(basket.total.value == 7)
        }
        #expect(basket.total.value == 7)
    }

    @Test("Observation hears its changes: at once for a write on the main thread")
    func observationOnMainThread() {
        let count = Stored(1)
        let doubled = MainActorComputed { count.value * 2 }
        let changes = Counter()
        withObservationTracking {
            _ = doubled.value
        } onChange: {
            changes.increment()
        }
        count.value = 2
        #expect(changes.value == 1)
        withObservationTracking {
            _ = doubled.value
        } onChange: {
            changes.increment()
        }
        count.value = 2  // equal: nothing
        #expect(changes.value == 1)
        count.value = 3
        #expect(changes.value == 2)
    }

    @Test("Observation hears a change written on another thread once the main actor re-evaluated it")
    func observationFromAnotherThread() async {
        let count = Stored(1)
        let doubled = MainActorComputed { count.value * 2 }
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = doubled.value
        } onChange: {
            MainActor.preconditionIsolated()
            continuation.yield()
        }
        await Task.detached { count.value = 2 }.value
        var iterator = stream.makeAsyncIterator()
        await iterator.next()
        #expect(doubled.value == 4)
    }

    @Test("once its owner is gone it keeps its last value and depends on nothing")
    func ownerGone() {
        var basket: Basket? = Basket()
        let total = basket!.total
        let prices = basket!.prices
        #expect(total.value == 6)
        basket = nil
        prices.value = [100]
        #expect(total.value == 6)
        #expect(!prices.hasObserversForTesting)
        let dependsOnNothing = total.computed.node.sourceCountForTesting == 0
        #expect(dependsOnNothing)
    }

    @Test("a chain of main-actor values nested deeper than a thread's nesting budget is derived on the main thread")
    func deepChainStaysOnMainThread() {
        // Deeper than `_Graph.levelsOnReadingThread`: on Linux, past it, a first read moves
        // nested derivations to helper threads; main-actor ones must stay.
        let depth = _Graph.levelsOnReadingThread + 100
        let source = Stored(0)
        var last = MainActorComputed { source.value }
        var onMainThread = 0
        for _ in 0..<depth {
            let previous = last
            last = MainActorComputed {
                if _graph.isOnMainThread() { onMainThread += 1 }
                return previous.value + 1
            }
        }
        #expect(last.value == depth)
        #expect(onMainThread == depth)
        // A plain chain below them still moves, and is read from the main actor.
        var plain = Computed { source.value }
        for _ in 0..<depth {
            let previous = plain
            plain = Computed { previous.value + 1 }
        }
        let top = plain
        let mixed = MainActorComputed { last.value + top.value }
        source.value = 1
        #expect(mixed.value == 2 * depth + 2)
    }

    @Test("reached off the main actor, it stops with a message instead of deriving there")
    func offMainActorFails() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let source = Stored(1)
                let onMain = await MainActor.run { MainActorComputed(name: "onMain") { source.value + 1 } }
                // A Computed that (wrongly) reaches it through assumeIsolated: fine on the main actor…
                let reader = Computed { MainActor.assumeIsolated { onMain.value } }
                await MainActor.run { _ = reader.value }
                source.value = 2
                // …but read on another thread, it would bring `onMain` up to date there.
                await Task.detached { _ = reader.value }.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("MainActorComputed 'onMain' was evaluated off the main actor"))
    }

    @Test("read for the first time after its owner is gone, it stops with a message")
    func neverEvaluatedOwnerGone() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                await MainActor.run {
                    var basket: Basket? = Basket()
                    let total = basket!.total
                    basket = nil
                    _ = total.value
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("was read for the first time after its owner was released"))
    }
}
