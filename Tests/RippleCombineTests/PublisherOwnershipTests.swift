import Foundation
import Ripple
import RippleCombine
import RippleStore
import Testing

final class PublisherOwnershipHolder: @unchecked Sendable {
    var cancellable: AnyCancellable?
}

/// A review found a store's and an event's publisher, first asked for a value inside a
/// reaction's run, adopted by that reaction: its next run ended the subscription, with no value
/// and no completion, though the subscriber never cancelled.
@Suite("Store publishers subscribed inside a reaction")
struct StorePublisherOwnershipTests {
    @Test("a store's statePublisher subscribed inside a reaction keeps delivering after that reaction re-runs")
    func statePublisherSubscribedInReaction() {
        let store = Store<Counter, String>(initialState: Counter())
        let trigger = Stored(0)
        let holder = PublisherOwnershipHolder()
        let received = Box<[Int]>([])
        let completions = Box<Int>(0)
        let reaction = observe {
            _ = trigger.value
            if holder.cancellable == nil {
                holder.cancellable = store.statePublisher.sink(
                    receiveCompletion: { _ in completions.mutate { $0 += 1 } },
                    receiveValue: { state in received.mutate { $0.append(state.count) } })
            }
        }
        trigger.value = 1  // the reaction re-runs; the subscriber has not cancelled
        store.commit { $0.count = 1 }
        #expect(
            received.value == [0, 1],
            "the subscription ended silently: no value, no completion (completions: \(completions.value))")
        withExtendedLifetime((reaction, holder)) {}
    }

    @Test("a store's activityPublisher subscribed inside a reaction keeps delivering after that reaction re-runs")
    func activityPublisherSubscribedInReaction() {
        let store = Store<Counter, String>(initialState: Counter())
        let trigger = Stored(0)
        let holder = PublisherOwnershipHolder()
        let received = Box<[String]>([])
        let reaction = observe {
            _ = trigger.value
            if holder.cancellable == nil {
                holder.cancellable = store.activityPublisher.sink { activity in received.mutate { $0.append(activity) }
                }
            }
        }
        trigger.value = 1
        store.send("saved")
        #expect(received.value == ["saved"], "the activity subscription ended silently")
        withExtendedLifetime((reaction, holder)) {}
    }
}

@Suite("Event publishers subscribed inside a reaction")
struct EventPublisherOwnershipTests {
    @Test("an Event's publisher subscribed inside a reaction keeps delivering after that reaction re-runs")
    func eventPublisherSubscribedInReaction() {
        let tapped = Event<Int>()
        let trigger = Stored(0)
        let holder = PublisherOwnershipHolder()
        let received = Box<[Int]>([])
        let reaction = observe {
            _ = trigger.value
            if holder.cancellable == nil {
                holder.cancellable = tapped.publisher.sink { value in received.mutate { $0.append(value) } }
            }
        }
        tapped.send(1)
        trigger.value = 1  // the reaction re-runs; the subscriber has not cancelled
        tapped.send(2)
        #expect(received.value == [1, 2])
        withExtendedLifetime((reaction, holder)) {}
    }

    @Test("control: a Stored's publisher subscribed inside a reaction keeps delivering after that reaction re-runs")
    func storedPublisherSubscribedInReaction() {
        let source = Stored(0)
        let trigger = Stored(0)
        let holder = PublisherOwnershipHolder()
        let received = Box<[Int]>([])
        let reaction = observe {
            _ = trigger.value
            if holder.cancellable == nil {
                holder.cancellable = source.publisher.sink { value in received.mutate { $0.append(value) } }
            }
        }
        trigger.value = 1
        source.value = 1
        #expect(received.value == [0, 1])
        withExtendedLifetime((reaction, holder)) {}
    }
}
