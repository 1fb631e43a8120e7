import Testing

@testable import Ripple

/// `subscribeOnMainActor`: a main-actor handler gets every value, in the order sent, whatever
/// thread sends it.
@MainActor
@Suite("Event on the main actor")
struct EventMainActorTests {
    @Test("a value sent on the main actor is handled before send returns")
    func sentOnMainActor() {
        let event = Event<Int>()
        var seen: [Int] = []
        let subscription = event.subscribeOnMainActor { value in
            MainActor.assertIsolated()
            seen.append(value)
        }
        event.send(1)
        event.send(2)
        #expect(seen == [1, 2])
        subscription.cancel()
        event.send(3)
        #expect(seen == [1, 2])
    }

    @Test("values sent from another thread come first when the main actor sends the next one")
    func otherThreadFirst() {
        let event = Event<Int>()
        var seen: [Int] = []
        let subscription = event.subscribeOnMainActor { seen.append($0) }
        // The main actor is blocked here: the values wait for it.
        Thread.runUntilExited {
            for value in 1...3 { event.send(value) }
        }
        #expect(seen.isEmpty)
        event.send(4)
        #expect(seen == [1, 2, 3, 4])
        subscription.cancel()
    }

    @Test("values sent from another thread are handled on the main actor, in order")
    func otherThreadInOrder() async {
        let event = Event<Int>()
        var seen: [Int] = []
        let subscription = event.subscribeOnMainActor { value in
            MainActor.assertIsolated()
            seen.append(value)
        }
        Thread.runUntilExited {
            for value in 1...100 { event.send(value) }
        }
        _ = await eventually(1_000) { seen.count >= 100 }
        #expect(seen == Array(1...100))
        subscription.cancel()
    }

    @Test("a value a handler sends is handled after the current one, not inside it")
    func sentFromHandler() async {
        let event = Event<Int>()
        var log: [String] = []
        let subscription = event.subscribeOnMainActor { value in
            log.append("start \(value)")
            if value == 1 { event.send(2) }
            log.append("end \(value)")
        }
        // Sent from a thread: handled by the main actor's drain.
        Thread.runUntilExited { event.send(1) }
        _ = await eventually(1_000) { log.count >= 4 }
        #expect(log == ["start 1", "end 1", "start 2", "end 2"])
        subscription.cancel()
    }

    @Test("values still on their way when the subscription ends are dropped")
    func droppedAfterCancel() async {
        let event = Event<Int>()
        var seen: [Int] = []
        var subscription: Subscription? = event.subscribeOnMainActor { seen.append($0) }
        Thread.runUntilExited { event.send(1) }
        subscription?.cancel()
        subscription = nil
        for _ in 0..<100 { await Task.yield() }
        #expect(seen.isEmpty)
    }

    @Test("a handler that ends its own subscription gets none of the values still queued")
    func endedDuringItsDrain() async {
        let event = Event<Int>()
        var seen: [Int] = []
        var subscription: Subscription?
        subscription = event.subscribeOnMainActor { value in
            seen.append(value)
            subscription?.cancel()
            subscription = nil
        }
        // Sent from a thread: all three wait for one main-actor drain, which handles the
        // queue in one go, so once the first is seen the drain is over.
        Thread.runUntilExited { for value in 1...3 { event.send(value) } }
        _ = await eventually(1_000) { !seen.isEmpty }
        #expect(seen == [1])
    }
}
