import Testing
@testable import Ripple

@Suite("Event")
struct EventTests {
    @Test("send reaches subscribers synchronously, in subscription order")
    func deliveryOrder() {
        let event = Event<Int>()
        let log = Recorder<String>()
        let first = event.subscribe { log.append("first \($0)") }
        let second = event.subscribe { log.append("second \($0)") }
        event.send(1)
        #expect(log.all == ["first 1", "second 1"])
        _ = (first, second)
    }

    @Test("nothing is stored or replayed")
    func noReplay() {
        let event = Event<Int>()
        event.send(1)
        let log = Recorder<Int>()
        let late = event.subscribe { log.append($0) }
        #expect(log.all.isEmpty)
        event.send(2)
        #expect(log.all == [2])
        _ = late
    }

    @Test("a send from inside a subscriber is delivered after the current one, in order")
    func nestedSendOrder() {
        let event = Event<Int>()
        let log = Recorder<String>()
        let first = event.subscribe { value in
            log.append("first \(value)")
            if value == 1 { event.send(2) }
        }
        let second = event.subscribe { log.append("second \($0)") }
        event.send(1)
        #expect(log.all == ["first 1", "second 1", "first 2", "second 2"])
        _ = (first, second)
    }

    @Test("cancelling a subscription removes it")
    func cancelRemoves() {
        let event = Event<Void>()
        let count = Counter()
        var subscription: Subscription? = event.subscribe { count.increment() }
        event.send()
        #expect(event.subscriberCount == 1)
        subscription = nil
        event.send()
        #expect(count.value == 1)
        #expect(event.subscriberCount == 0)
        _ = subscription
    }

    @Test("a subscriber cancelled by an earlier one during a delivery is not called with it")
    func cancelledDuringADelivery() {
        let event = Event<Int>()
        let seen = Recorder<String>()
        let second = Cell<Subscription?>(nil)
        let first = event.subscribe { value in
            seen.append("first \(value)")
            second.value?.cancel()
        }
        second.value = event.subscribe { seen.append("second \($0)") }
        let third = event.subscribe { seen.append("third \($0)") }
        event.send(1)
        event.send(2)
        #expect(seen.all == ["first 1", "third 1", "first 2", "third 2"])
        #expect(event.subscriberCount == 2)
        _ = (first, third)
    }

    @Test("an event handler may write state that reactions see in order")
    func handlerWrites() {
        let event = Event<Int>()
        let total = Stored(0)
        let seen = Recorder<Int>()
        let handler = event.subscribe { total.value += $0 }
        let reaction = observe { seen.append(total.value) }
        event.send(2)
        event.send(3)
        #expect(seen.all == [0, 2, 5])
        _ = (handler, reaction)
    }

    @Test("an event sent from a reaction, then a write: the handler's write and the later write each have a round")
    func sendThenWriteFromReaction() {
        let trigger = Stored(0)
        let x = Stored(0)
        let y = Stored(0)
        let event = Event<Int>()
        let handler = event.subscribe { value in y.value = value }
        let sender = observe {
            guard trigger.value == 1 else { return }
            event.send(1)
            x.value = 1
        }
        let seen = Recorder<[Int]>()
        let reader = observe { seen.append([x.value, y.value]) }
        trigger.value = 1
        // The send is queued first: its round applies the handler's write; the write made after
        // the send has the next round. (The write used to be applied in the send's round.)
        #expect(seen.all == [[0, 0], [0, 1], [1, 1]])
        withExtendedLifetime((handler, sender, reader)) {}
    }

    @Test("a reaction created in a handler belongs to its subscription, not to the sender's scope")
    func handlerOwnsNothing() {
        let event = Event<Int>()
        let source = Stored(0)
        let seen = Recorder<Int>()
        let kept = Cell<Subscription?>(nil)
        let handler = event.subscribe { _ in kept.value = observe { seen.append(source.value) } }
        let scope = ReactionScope()
        scope.run { event.send(1) }
        scope.cancel()
        source.value = 1
        #expect(seen.all == [0, 1])
        kept.value?.cancel()
        _ = handler
    }
}
