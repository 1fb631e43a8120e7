import RippleStore
import Testing

/// Issue 10: a derived value lives while observed, and does not keep its store alive.
@Suite("Derived lifetime")
struct DerivedLifetimeTests {
    @Test("a derived value dropped by its creator keeps delivering while observed")
    func livesWhileObserved() {
        let store = TDStore(initialState: TDState())
        let values = TDLog<Int>()
        let subscription: Subscription = {
            let doubled = store.derived { $0.count * 2 }
            return doubled.sinkValue { values.append($0.current) }
        }()
        store.increment()
        store.increment()
        #expect(values.all == [0, 2, 4])
        subscription.cancel()
        store.increment()
        #expect(values.all == [0, 2, 4])
    }

    @Test("a derived value read by a reaction keeps updating after its creator dropped it")
    func livesWhileReadByAReaction() {
        let store = TDStore(initialState: TDState())
        let values = TDLog<Int>()
        let subscription: Subscription = {
            let sum = store.derived(from: \.a, \.b) { $0 + $1 }
            return observe { values.append(sum.value) }
        }()
        store.commit { $0.a = 1 }
        store.commit { $0.b = 2 }
        #expect(values.all == [0, 1, 3])
        subscription.cancel()
    }

    @Test("a derived value stays alive while its sinkValue subscription is alive")
    func keptAliveBySinkValue() {
        let store = TDStore(initialState: TDState())
        weak var weakDerived: Derived<Int>?
        let subscription: Subscription = {
            let count = store.derived { $0.count * 2 }
            weakDerived = count
            return count.sinkValue { _ in }
        }()
        #expect(weakDerived != nil, "the Derived was freed while its sinkValue subscription is alive")
        subscription.cancel()
        #expect(weakDerived == nil, "the cancelled subscription still keeps the Derived")
    }

    @Test("a derived value stays alive while a value derived from it, or combined with it, is alive")
    func keptAliveByItsDerivedValues() {
        let store = TDStore(initialState: TDState())
        weak var weakByKeyPath: Derived<TDProfile>?
        weak var weakByTransform: Derived<Int>?
        weak var weakCombined: Derived<String>?
        var children: (Derived<String>, Derived<Int>, Derived<(String, Int)>)? = {
            let profile = store.derived(\.profile)
            let count = store.derived { $0.count }
            let name = store.derived { $0.name }
            weakByKeyPath = profile
            weakByTransform = count
            weakCombined = name
            return (profile.derived(\.first), count.derived { $0 + 1 }, combined(name, count))
        }()
        #expect(weakByKeyPath != nil, "derived(keyPath) from a Derived does not keep it")
        #expect(weakByTransform != nil, "derived(transform) from a Derived does not keep it")
        #expect(weakCombined != nil, "combined does not keep its inputs")
        store.commit { $0.count = 4 }
        #expect(children?.1.value == 5)
        children = nil
        #expect(weakByKeyPath == nil && weakByTransform == nil && weakCombined == nil)
    }

    @Test("derived values and their subscriptions do not retain the store")
    func doesNotRetainTheStore() {
        weak var weakStore: TDStore?
        var count: Derived<Int>?
        var sum: Derived<Int>?
        var title: Derived<String>?
        var binding: StoreBinding<String>?
        var subscription: Subscription?
        do {
            let store = TDStore(initialState: TDState())
            weakStore = store
            count = store.derived(\.count)
            sum = store.derived(from: \.a, \.b) { $0 + $1 }
            title = store.derived { "\($0.name)!" }
            binding = store.binding(\.name)
            subscription = count!.sinkValue { _ in }
            store.increment()
            _ = (sum!.value, title!.value, binding!.value)
        }
        #expect(weakStore == nil, "a derived value, a binding or a sinkValue subscription kept the store alive")
        // They keep their last value.
        #expect(count?.value == 1)
        #expect(sum?.value == 0)
        #expect(title?.value == "!")
        withExtendedLifetime(subscription) {}
    }
}

/// A binding that outlives its store writes nothing: derived values keep their last value.
@Suite("Binding after its store")
struct BindingAfterStoreTests {
    @Test("a binding's write after its store is released is dropped: derived values keep their last value")
    func writeAfterReleaseIsDropped() {
        var count: Derived<Int>?
        var binding: StoreBinding<Int>?
        let values = TDLog<Int>()
        var subscription: Subscription?
        do {
            let store = TDStore(initialState: TDState())
            count = store.derived(\.count)
            binding = store.binding(\.count)
            subscription = count!.sinkValue { values.append($0.current) }
            store.increment()
        }
        #expect(values.all == [0, 1])
        binding!.value = 100
        binding!.update { $0 += 1 }
        binding!.value += 1
        binding!.valueBinding.value = 7
        #expect(count?.value == 1, "a binding committed to a released store")
        #expect(binding!.value == 1)
        #expect(values.all == [0, 1], "a derived value's subscriber ran for a write to a released store")
        withExtendedLifetime(subscription) {}
    }
}
