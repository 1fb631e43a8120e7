import RippleStore
import Testing

/// Issue 10 item 7: activities reach subscribers and an AsyncSequence, and are never stored.
@Suite("Activities")
struct ActivityTests {
    @Test("send reaches every sinkActivity subscriber, in order")
    func sendReachesSubscribers() {
        let store = TDStore(initialState: TDState())
        let first = TDLog<TDActivity>()
        let second = TDLog<TDActivity>()
        let subscriptions = [
            store.sinkActivity { first.append($0) },
            store.sinkActivity { second.append($0) },
        ]
        store.send(.ping(1))
        store.send(.pong)
        store.send(.ping(2))
        #expect(first.all == [.ping(1), .pong, .ping(2)])
        #expect(second.all == [.ping(1), .pong, .ping(2)])
        subscriptions[0].cancel()
        store.send(.pong)
        #expect(first.count == 3)
        #expect(second.count == 4)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("an activity is not state: it changes no version and reaches no state subscriber")
    func notState() {
        let store = TDStore(initialState: TDState())
        let deliveries = TDCounter()
        let subscription = store.sinkState(dropsFirst: true) { _ in deliveries.increment() }
        store.send(.pong)
        #expect(store.version == 0)
        #expect(deliveries.value == 0)
        subscription.cancel()
    }

    @Test("activities are never stored: a late subscriber gets nothing sent before it")
    func neverStored() {
        let store = TDStore(initialState: TDState())
        store.send(.ping(1))
        let late = TDLog<TDActivity>()
        let subscription = store.sinkActivity { late.append($0) }
        #expect(late.all == [])
        store.send(.ping(2))
        #expect(late.all == [.ping(2)])
        subscription.cancel()
    }

    @Test("the activities sequence delivers every activity in order, and only those sent after it was made")
    func asyncSequence() async {
        let store = TDStore(initialState: TDState())
        store.send(.ping(0))  // before the sequence: never seen
        let activities = store.activities
        store.send(.ping(1))
        store.send(.pong)
        store.send(.ping(2))
        var iterator = activities.makeAsyncIterator()
        var received: [TDActivity] = []
        for _ in 0..<3 {
            if let activity = await iterator.next() { received.append(activity) }
        }
        #expect(received == [.ping(1), .pong, .ping(2)])
    }

    @Test("the activities sequence ends when the store is released")
    func sequenceEndsWithTheStore() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let activities = store!.activities
        store!.send(.pong)
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil, "the activities sequence kept the store alive")
        var received: [TDActivity] = []
        for await activity in activities { received.append(activity) }
        #expect(received == [.pong])
    }

    @Test("activities sent from a task reach a sequence iterated in another")
    func acrossTasks() async {
        let store = TDStore(initialState: TDState())
        let activities = store.activities
        let sender = Task {
            for i in 0..<50 { store.send(.ping(i)) }
        }
        var received: [TDActivity] = []
        for await activity in activities {
            received.append(activity)
            if received.count == 50 { break }
        }
        await sender.value
        #expect(received == (0..<50).map { .ping($0) })
    }

    @Test("a dispatcher's send reaches the store's subscribers")
    func dispatcherSend() {
        let store = TDStore(initialState: TDState())
        let dispatcher = Dispatcher<TDState, TDActivity, TDState>(target: store)
        let received = TDLog<TDActivity>()
        let subscription = store.sinkActivity { received.append($0) }
        dispatcher.send(.pong)
        #expect(received.all == [.pong])
        subscription.cancel()
    }
}
