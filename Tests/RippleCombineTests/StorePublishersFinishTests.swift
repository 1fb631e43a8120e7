import Ripple
import RippleCombine
import RippleStore
import Testing

/// A store's publishers finish when the store is released, as its sequences do.
@Suite struct StorePublishersFinishTests {
    @Test("a store's state, changes and activity publishers finish when the store is released")
    func finishOnRelease() {
        let completions = Box<[String]>([])
        let values = Box<[String]>([])
        var store: Store<Counter, String>? = Store(initialState: Counter())
        let a = store!.statePublisher.sink(
            receiveCompletion: { _ in completions.mutate { $0.append("state") } },
            receiveValue: { state in values.mutate { $0.append("state \(state.count)") } }
        )
        let b = store!.changesPublisher.sink(
            receiveCompletion: { _ in completions.mutate { $0.append("changes") } },
            receiveValue: { changes in values.mutate { $0.append("changes \(changes.current.count)") } }
        )
        let c = store!.activityPublisher.sink(
            receiveCompletion: { _ in completions.mutate { $0.append("activity") } },
            receiveValue: { activity in values.mutate { $0.append("activity \(activity)") } }
        )
        store!.commit { $0.count = 1 }
        store!.send("saved")
        #expect(completions.value == [])
        store = nil
        #expect(completions.value.sorted() == ["activity", "changes", "state"])
        #expect(values.value == ["state 0", "changes 0", "state 1", "changes 1", "activity saved"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("a publisher does not keep its store alive, and finishes at once when subscribed after the release")
    func publisherOfReleasedStore() {
        weak var weakStore: Store<Counter, String>?
        let publisher: RipplePublisher<Counter>
        let activities: RipplePublisher<String>
        do {
            let store = Store<Counter, String>(initialState: Counter())
            weakStore = store
            publisher = store.statePublisher
            activities = store.activityPublisher
        }
        #expect(weakStore == nil)
        let completions = Box<[String]>([])
        let received = Box<Int>(0)
        let a = publisher.sink(
            receiveCompletion: { _ in completions.mutate { $0.append("state") } },
            receiveValue: { _ in received.mutate { $0 += 1 } })
        let b = activities.sink(
            receiveCompletion: { _ in completions.mutate { $0.append("activity") } },
            receiveValue: { _ in received.mutate { $0 += 1 } })
        #expect(completions.value == ["state", "activity"])
        #expect(received.value == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test("a subscriber with no demand left gets the values kept for it, then the completion")
    func keptValuesBeforeCompletion() {
        var store: Store<Counter, String>? = Store(initialState: Counter())
        let received = Box<[String]>([])
        let finished = Box<Int>(0)
        let subscriber = ManualSubscriber<String>(
            { _, value in received.mutate { $0.append(value) } },
            onCompletion: { finished.mutate { $0 += 1 } }
        )
        store!.activityPublisher.subscribe(subscriber)
        subscriber.request(1)
        store!.send("a")
        store!.send("b")
        store!.send("c")
        store = nil
        #expect(received.value == ["a"])
        #expect(finished.value == 0)
        subscriber.request(1)
        #expect(received.value == ["a", "b"])
        #expect(finished.value == 0)
        subscriber.request(.unlimited)
        #expect(received.value == ["a", "b", "c"])
        #expect(finished.value == 1)
        subscriber.request(1)
        #expect(finished.value == 1)
    }

    @Test("a cancelled subscriber is not sent the completion")
    func cancelledIsNotFinished() {
        var store: Store<Counter, String>? = Store(initialState: Counter())
        let finished = Box<Int>(0)
        let subscriber = ManualSubscriber<Counter>({ _, _ in }, onCompletion: { finished.mutate { $0 += 1 } })
        store!.statePublisher.subscribe(subscriber)
        subscriber.request(.unlimited)
        subscriber.cancel()
        store = nil
        #expect(finished.value == 0)
    }

    @Test("subscribed after the release, a store publisher finishes at once, before any demand")
    func finishesAtOnceWithoutDemand() {
        let publisher: RipplePublisher<Counter>
        do {
            let store = Store<Counter, String>(initialState: Counter())
            publisher = store.statePublisher
        }
        let finished = Box<Int>(0)
        let subscriber = ManualSubscriber<Counter>({ _, _ in }, onCompletion: { finished.mutate { $0 += 1 } })
        publisher.subscribe(subscriber)
        #expect(finished.value == 1)
    }

    @Test("a store publisher whose subscriber made no demand finishes when the store is released")
    func finishesOnReleaseWithoutDemand() {
        var store: Store<Counter, String>? = Store(initialState: Counter())
        let finished = Box<Int>(0)
        let subscriber = ManualSubscriber<String>({ _, _ in }, onCompletion: { finished.mutate { $0 += 1 } })
        store!.activityPublisher.subscribe(subscriber)
        store = nil
        #expect(finished.value == 1)
        subscriber.request(1)
        #expect(finished.value == 1, "finished once")
    }

    @Test("a subscriber that cancels before any demand is not finished when the store is released")
    func cancelledBeforeDemandIsNotFinished() {
        var store: Store<Counter, String>? = Store(initialState: Counter())
        let finished = Box<Int>(0)
        let subscriber = ManualSubscriber<Counter>({ _, _ in }, onCompletion: { finished.mutate { $0 += 1 } })
        store!.statePublisher.subscribe(subscriber)
        subscriber.cancel()
        store = nil
        #expect(finished.value == 0)
    }
}
