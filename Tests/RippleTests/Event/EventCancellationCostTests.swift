import Testing
@testable import Ripple

/// Cancelling an event's subscription costs O(1), amortized, whatever the number of
/// subscribers and the order of the cancellations: counted in the slots the event looks at
/// (debug builds), not timed.
@Suite("Event cancellation cost")
struct EventCancellationCostTests {
    enum Order: CaseIterable { case firstSubscribedFirst, lastSubscribedFirst, shuffled, everyOtherThenRest }

    @Test("cancelling n subscriptions looks at O(n) slots, in any order", arguments: Order.allCases)
    func cancelsAreLinear(order: Order) {
        let count = 10_000
        let event = Event<Int>()
        let received = Recorder<Int>()
        var subscriptions = (0..<count).map { index in event.subscribe { if $0 == index { received.append(index) } } }
        #expect(event.subscriberCount == count)
        var generator = SeededGenerator(seed: 42)
        switch order {
        case .firstSubscribedFirst: break
        case .lastSubscribedFirst: subscriptions.reverse()
        case .shuffled: subscriptions.shuffle(using: &generator)
        case .everyOtherThenRest:
            subscriptions =
                subscriptions.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                + subscriptions.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        }
        #if RIPPLE_INVARIANTS
        let visitedBefore = event.slotsVisited
        #endif
        // Cancel half, then check that the others still receive, in order, then the rest.
        let half = subscriptions[..<(count / 2)]
        for subscription in half { subscription.cancel() }
        #expect(event.subscriberCount == count - count / 2)
        var cancelled = Set(half.map { ObjectIdentifier($0) })
        event.send(-1)
        for subscription in subscriptions[(count / 2)...] { subscription.cancel() }
        cancelled.formUnion(subscriptions.map { ObjectIdentifier($0) })
        #expect(event.subscriberCount == 0)
        #expect(cancelled.count == count)
        #if RIPPLE_INVARIANTS
        // Each cancel looks at its own slot and, amortized, a bounded number of others.
        #expect(event.slotsVisited - visitedBefore <= 4 * count)
        #endif
        event.send(1)
        #expect(received.all.isEmpty)
    }

    @Test("the subscribers left after cancellations in any order are called in subscription order")
    func orderKeptAcrossCancellations() {
        let event = Event<Int>()
        let log = Recorder<Int>()
        var generator = SeededGenerator(seed: 7)
        var live: [(index: Int, subscription: Subscription)] = []
        var next = 0
        for _ in 0..<2_000 {
            if live.isEmpty || Int.random(in: 0..<10, using: &generator) < 6 {
                let index = next
                next += 1
                live.append((index, event.subscribe { _ in log.append(index) }))
            } else {
                let position = Int.random(in: 0..<live.count, using: &generator)
                live.remove(at: position).subscription.cancel()
            }
            if Int.random(in: 0..<20, using: &generator) == 0 {
                log.removeAll()
                event.send(0)
                #expect(log.all == live.map(\.index))
                #expect(event.subscriberCount == live.count)
            }
        }
        log.removeAll()
        event.send(0)
        #expect(log.all == live.map(\.index))
    }
}
