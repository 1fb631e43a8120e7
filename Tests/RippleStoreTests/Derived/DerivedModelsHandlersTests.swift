import RippleStore
import Testing

/// Issue 10 item 5: derived values are `ObservableValue`s, so the models layer's handlers work.
@Suite("Derived with the models layer's handlers")
struct DerivedModelsHandlersTests {
    @Test("didChange on a derived value: only real changes, with old and new")
    func didChange() {
        let store = TDStore(initialState: TDState())
        let count = store.derived(\.count)
        let news = TDLog<Int>()
        let pairs = TDLog<String>()
        let subscriptions = [
            count.didChange { news.append($0) },
            count.didChange { old, new in pairs.append("\(old)->\(new)") },
        ]
        store.rename("Ada")
        store.increment()
        store.increment()
        #expect(news.all == [1, 2])
        #expect(pairs.all == ["0->1", "1->2"])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("didChange(withCurrent:) starts with the current value")
    func didChangeWithCurrent() {
        let store = TDStore(initialState: TDState(count: 3))
        let values = TDLog<Int>()
        let subscription = store.derived { $0.count * 2 }.didChange(withCurrent: true) { values.append($0) }
        store.increment()
        #expect(values.all == [6, 8])
        subscription.cancel()
    }

    @Test("didUpdate on a derived value hears each change of its output")
    func didUpdate() {
        let store = TDStore(initialState: TDState())
        let parity = store.derived(from: \.count) { $0 % 2 }
        let updates = TDLog<Int>()
        let subscription = parity.didUpdate { updates.append($0) }
        store.increment()  // 1
        store.commit { $0.count = 3 }  // parity unchanged
        store.increment()  // 0
        store.rename("x")
        #expect(updates.all == [1, 0])
        subscription.cancel()
    }

    @Test("didChange(comparing:) on a derived struct compares the projection")
    func didChangeComparing() {
        let store = TDStore(initialState: TDState())
        let profile = store.derived(\.profile)
        let firsts = TDLog<String>()
        let subscription = profile.didChange(comparing: \.first) { firsts.append($0.first) }
        store.commit { $0.profile.last = "Lovelace" }
        store.commit { $0.profile.first = "Ada" }
        store.rename("x")
        #expect(firsts.all == ["Ada"])
        subscription.cancel()
    }

    @Test("a StoreBinding is an ObservableValue too")
    func bindingHandlers() {
        let store = TDStore(initialState: TDState())
        let name = store.binding(\.name)
        let names = TDLog<String>()
        let subscription = name.didChange { names.append($0) }
        store.increment()
        name.value = "Ada"
        store.rename("Grace")
        #expect(names.all == ["Ada", "Grace"])
        subscription.cancel()
    }
}
