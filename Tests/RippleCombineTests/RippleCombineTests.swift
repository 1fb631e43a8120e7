import Ripple
import RippleCombine
import RippleModels
import RippleStore
import Testing

/// Values behind a lock, for sink closures.
final class Box<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.with { stored } }
        set { lock.with { stored = newValue } }
    }
    func mutate(_ body: (inout Value) -> Void) { lock.with { body(&stored) } }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    func with<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

struct Counter: Equatable, Sendable {
    var count = 0
    var name = ""
}

@Suite struct RippleCombineTests {
    @Test("a Stored's publisher emits the current value, then each change")
    func storedPublisher() {
        let count = Stored(1)
        let seen = Box<[Int]>([])
        let cancellable = count.publisher.sink { value in seen.mutate { $0.append(value) } }
        count.value = 2
        count.value = 2
        count.value = 3
        #expect(seen.value == [1, 2, 3])
        cancellable.cancel()
        count.value = 4
        #expect(seen.value == [1, 2, 3])
    }

    @Test("a Computed's publisher composes with operators")
    func computedPublisher() {
        let count = Stored(1)
        let doubled = Computed { count.value * 2 }
        let seen = Box<[String]>([])
        let cancellable = doubled.publisher.map { "\($0)" }.sink { value in seen.mutate { $0.append(value) } }
        count.value = 5
        #expect(seen.value == ["2", "10"])
        withExtendedLifetime(cancellable) {}
    }

    @Test("with limited demand, a value publisher keeps the newest value; an event publisher keeps all")
    func demand() {
        let count = Stored(0)
        let received = Box<[Int]>([])
        let subscriber = ManualSubscriber<Int> { _, value in received.mutate { $0.append(value) } }
        count.publisher.subscribe(subscriber)
        subscriber.request(1)
        #expect(received.value == [0])
        count.value = 1
        count.value = 2
        subscriber.request(1)
        #expect(received.value == [0, 2])

        let event = Event<Int>()
        let events = Box<[Int]>([])
        let eventSubscriber = ManualSubscriber<Int> { _, value in events.mutate { $0.append(value) } }
        event.publisher.subscribe(eventSubscriber)
        eventSubscriber.request(1)
        event.send(1)
        event.send(2)
        event.send(3)
        #expect(events.value == [1])
        eventSubscriber.request(.unlimited)
        #expect(events.value == [1, 2, 3])
        eventSubscriber.cancel()
        event.send(4)
        #expect(events.value == [1, 2, 3])
        #expect(event.subscriberCount == 0)
    }

    @Test("a store's states, changes and activities as publishers")
    func storePublishers() {
        let store = Store<Counter, String>(initialState: Counter())
        let states = Box<[Int]>([])
        let changed = Box<[String]>([])
        let activities = Box<[String]>([])
        let a = store.statePublisher.map(\.count).removeDuplicates().sink { value in states.mutate { $0.append(value) }
        }
        let b = store.changesPublisher.sink { changes in
            changes.ifChanged(\.name) { name in changed.mutate { $0.append(name) } }
        }
        let c = store.activityPublisher.sink { activity in activities.mutate { $0.append(activity) } }
        store.commit { $0.count = 1 }
        store.commit { $0.name = "Ada" }
        store.send("saved")
        #expect(states.value == [0, 1])
        #expect(changed.value == ["", "Ada"])
        #expect(activities.value == ["saved"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("assign and sink write a publisher's values into Ripple values")
    func assignAndSink() {
        let subject = PassthroughSubject<Int, Never>()
        let latest = Stored(0)
        let total = Stored(0)
        let model = Stored(Counter())
        let a = subject.assign(to: latest)
        let b = subject.sink(into: total) { total, value in total += value }
        let c = subject.map { "n\($0)" }.assign(to: ValueBinding(model).name)
        subject.send(2)
        subject.send(5)
        #expect(latest.value == 5)
        #expect(total.value == 7)
        #expect(model.value.name == "n5")
        withExtendedLifetime((a, b, c)) {}
    }
}

/// A subscriber whose demand the test controls.
final class ManualSubscriber<Input: Sendable>: Subscriber, @unchecked Sendable {
    typealias Failure = Never
    private let onValue: @Sendable (ManualSubscriber, Input) -> Void
    private let onCompletion: @Sendable () -> Void
    private let subscription = Box<(any _TestSubscription)?>(nil)

    init(
        _ onValue: @escaping @Sendable (ManualSubscriber, Input) -> Void,
        onCompletion: @escaping @Sendable () -> Void = {}
    ) {
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
    func receive(subscription: any _TestSubscription) { self.subscription.value = subscription }
    func receive(_ input: Input) -> Subscribers.Demand {
        onValue(self, input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { onCompletion() }
    func request(_ demand: Subscribers.Demand) { subscription.value?.request(demand) }
    func request(_ count: Int) { request(.max(count)) }
    func cancel() { subscription.value?.cancel() }
}

#if canImport(Combine)
typealias _TestSubscription = Combine.Subscription
#else
typealias _TestSubscription = OpenCombine.Subscription
#endif
