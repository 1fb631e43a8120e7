import Ripple
import RippleCombine
import RippleModels
import RippleStore
import Testing

/// A class whose release a weak reference can see.
final class Tracked: Sendable {}

@Suite struct ValuePublisherTests {
    @Test("a value publisher's subscriber does not make what it reads a dependency")
    func subscriberReadsAreNotTracked() {
        let count = Stored(0)
        let other = Stored(0)
        let seen = Box<[Int]>([])
        let cancellable = count.publisher.sink { value in
            _ = other.value
            seen.mutate { $0.append(value) }
        }
        other.value = 1
        other.value = 2
        #expect(seen.value == [0])  // `count` did not change
        count.value = 1
        #expect(seen.value == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test("a reaction a value publisher's subscriber starts is not cancelled by the next value")
    func subscriberDoesNotOwnWhatItCreates() {
        let count = Stored(0)
        let other = Stored(0)
        let inner = Box<Ripple.Subscription?>(nil)
        let innerSeen = Box<[Int]>([])
        let cancellable = count.publisher.sink { _ in
            guard inner.value == nil else { return }
            inner.value = observe { innerSeen.mutate { [value = other.value] in $0.append(value) } }
        }
        count.value = 1
        other.value = 5
        #expect(innerSeen.value == [0, 5])
        withExtendedLifetime((cancellable, inner.value)) {}
    }

    @Test("a cancelled subscription releases the subscriber and the value")
    func releasesAfterCancel() {
        weak var weakValue: Stored<Int>?
        weak var weakMarker: Tracked?
        let cancellable: AnyCancellable
        do {
            let count = Stored(0)
            let marker = Tracked()
            weakValue = count
            weakMarker = marker
            cancellable = count.publisher.sink { _ in withExtendedLifetime(marker) {} }
            count.value = 1
        }
        #expect(weakValue != nil)
        cancellable.cancel()
        #expect(weakValue == nil)
        #expect(weakMarker == nil)
    }

    @Test("a value publisher honours demand, a later request included, and sends nothing after cancel")
    func demandAfterLaterRequest() {
        let count = Stored(0)
        let received = Box<[Int]>([])
        let subscriber = ManualSubscriber<Int> { _, value in received.mutate { $0.append(value) } }
        count.publisher.subscribe(subscriber)
        #expect(received.value == [])
        count.value = 1
        subscriber.request(2)
        #expect(received.value == [1])
        count.value = 2
        count.value = 3
        #expect(received.value == [1, 2])
        subscriber.request(1)
        #expect(received.value == [1, 2, 3])
        count.value = 4
        #expect(received.value == [1, 2, 3])
        subscriber.cancel()
        subscriber.request(1)
        #expect(received.value == [1, 2, 3])
    }
    @Test("a value publisher keeps every value its subscriber has demand for, even while it is busy")
    func valuesWithinDemandAreKept() {
        let count = Stored(0)
        let received = Box<[Int]>([])
        // The subscriber writes the value it observes while it receives (outside any reaction,
        // so each write runs the publisher's reaction at once, during the delivery).
        let subscriber = ManualSubscriber<Int> { _, value in
            received.mutate { $0.append(value) }
            if value == 1 {
                count.value = 2
                count.value = 3
            }
        }
        count.publisher.subscribe(subscriber)
        subscriber.request(1)
        #expect(received.value == [0])
        count.value = 1
        subscriber.request(5)  // 1 waits; it is sent from here, not from the reaction
        #expect(received.value == [0, 1, 2, 3])
        count.value = 4
        count.value = 5
        #expect(received.value == [0, 1, 2, 3, 4, 5])
        count.value = 6  // no demand left: kept, then replaced by the newest
        count.value = 7
        subscriber.request(1)
        #expect(received.value == [0, 1, 2, 3, 4, 5, 7])
    }

    @Test("a change within the demand left while the subscriber receives is kept, not replaced")
    func changeWithinRemainingDemandIsKept() {
        let count = Stored(0)
        let received = Box<[Int]>([])
        let subscriber = ManualSubscriber<Int> { _, value in
            received.mutate { $0.append(value) }
            if value == 1 {
                count.value = 2  // within the demand left (1): sent next
                count.value = 3  // beyond it: kept as the newest
            }
        }
        count.publisher.subscribe(subscriber)
        subscriber.request(1)
        count.value = 1
        subscriber.request(2)  // 1 is sent from here; 1 demand is left while it is received
        #expect(received.value == [0, 1, 2])
        subscriber.request(1)
        #expect(received.value == [0, 1, 2, 3])
    }
}
