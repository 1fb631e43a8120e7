import Testing
@testable import Ripple

/// Main-actor state a reaction body reads and writes: not `Sendable`, not `@unchecked`.
@MainActor
final class MainActorLog {
    var entries: [String] = []
}

/// A plain class used only on the main actor: neither `Sendable` nor isolated.
final class Tally {
    var count = 0
}

@Suite("Reactions on the main actor")
@MainActor
struct MainActorReactionTests {
    @Test("called on the main actor, observeOnMainActor has run once before it returns")
    func firstRunIsSynchronous() {
        let value = Stored(1)
        let log = MainActorLog()
        let subscription = observeOnMainActor { log.entries.append("run \(value.value)") }
        #expect(log.entries == ["run 1"])
        subscription.cancel()
    }

    @Test("released before the main actor's next turn, it has still run once")
    func releasedAtOnceStillRan() {
        let tally = Tally()
        _ = observeOnMainActor { tally.count += 1 }
        #expect(tally.count == 1)
    }

    @Test("a write on the main thread runs it at once, in the round of the reactions it triggers")
    func writeOnMainRunsAtOnce() {
        let value = Stored(0)
        let log = Recorder<String>()
        let first = observe { log.append("observe \(value.value)") }
        let onMain = observeOnMainActor {
            MainActor.preconditionIsolated()
            log.append("main \(value.value)")
        }
        let last = observe { log.append("last \(value.value)") }
        log.removeAll()
        value.value = 1
        #expect(log.all == ["observe 1", "main 1", "last 1"])
        batch {
            value.value = 2
            value.value = 3
        }
        #expect(log.all == ["observe 1", "main 1", "last 1", "observe 3", "main 3", "last 3"])
        _ = (first, onMain, last)
    }

    @Test("a write made by a reaction on the main thread reaches it in order")
    func writesFromReactionsInOrder() {
        let trigger = Stored(0)
        let echo = Stored(0)
        let seen = MainActorLog()
        let writer = observe { if trigger.value > 0 { echo.value = trigger.value * 10 } }
        let reader = observeOnMainActor { seen.entries.append("\(trigger.value)/\(echo.value)") }
        trigger.value = 1
        #expect(seen.entries == ["0/0", "1/0", "1/10"])
        _ = (writer, reader)
    }

    @Test("a write on another thread sends the run to the main actor")
    func writeOffMainHops() async {
        let value = Stored(0)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscription = observeOnMainActor {
            MainActor.preconditionIsolated()
            continuation.yield(value.value)
        }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        await Task.detached { value.value = 1 }.value
        #expect(await iterator.next() == 1)
        subscription.cancel()
    }

    @Test("created off the main actor, its first run is sent to the main actor")
    func createdOffMain() async {
        let value = Stored(5)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscription = await Task.detached {
            observeOnMainActor {
                MainActor.preconditionIsolated()
                continuation.yield(value.value)
            }
        }.value
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 5)
        // Once the main actor is known, a write on the main thread runs it at once.
        value.value = 6
        #expect(await iterator.next() == 6)
        subscription.cancel()
    }

    @Test("the weak-owner form passes the owner, and stops once the owner is gone")
    func ownerForm() {
        @MainActor final class Screen {
            var title = ""
            var runs = 0
        }
        let count = Stored(1)
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        let subscription = observeOnMainActor(owner: screen!) { screen in
            screen.runs += 1
            screen.title = "\(count.value) left"
        }
        #expect(screen?.title == "1 left")
        count.value = 2
        #expect(screen?.title == "2 left")
        #expect(screen?.runs == 2)
        screen = nil
        #expect(weakScreen == nil, "the reaction holds its owner weakly")
        count.value = 3
        #expect(!count.hasObserversForTesting, "the first run without the owner cancelled the reaction")
        subscription.cancel()
    }
}
