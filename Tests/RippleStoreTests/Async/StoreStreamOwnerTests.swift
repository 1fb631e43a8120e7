import Ripple
import RippleStore
import Testing

/// A store's asynchronous sequences made inside a reaction belong to no one: they see every
/// later value until the store is released, however often the reaction runs again (before,
/// the reaction's next run cancelled their subscription, and the sequence went silent without
/// ending).
@Suite("Store: asynchronous sequences made inside a reaction")
struct StoreStreamOwnerTests {
    @Test("store.activities sees every activity sent after the access")
    func activities() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let streams = TDLog<AsyncStream<TDActivity>>()
        let reaction = observe { [weak store] in
            guard let store else { return }
            // Made on the first run only; the reaction also reads `count`, so it runs again.
            if store.state.count == 0, streams.count == 0 { streams.append(store.activities) }
        }
        store!.send(.ping(1))
        store!.increment()
        store!.send(.ping(2))
        reaction.cancel()
        store = nil
        var got: [TDActivity] = []
        for await activity in streams.all[0] { got.append(activity) }
        #expect(got == [.ping(1), .ping(2)])
    }

    @Test("store.changes sees every commit after the access")
    func changes() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let streams = TDLog<AsyncStream<Changes<TDState>>>()
        let reaction = observe { [weak store] in
            guard let store else { return }
            if store.state.count == 0, streams.count == 0 { streams.append(store.changes) }
        }
        store!.increment()
        store!.rename("Ada")
        reaction.cancel()
        store = nil
        var names: [String] = []
        for await changes in streams.all[0] { names.append("\(changes.current.count) \(changes.current.name)") }
        #expect(names == ["0 ", "1 ", "1 Ada"])
    }

    @Test("store.states and a key path of it see every change after the access")
    func states() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let whole = TDLog<StateStream<TDState>>()
        let counts = TDLog<StateStream<Int>>()
        let reaction = observe { [weak store] in
            guard let store else { return }
            if store.state.count == 0, whole.count == 0 {
                whole.append(store.states)
                counts.append(store.states.count)
            }
        }
        store!.increment()
        store!.increment()
        reaction.cancel()
        store = nil
        var seenWhole: [Int] = []
        for await state in whole.all[0] { seenWhole.append(state.count) }
        var seenCounts: [Int] = []
        for await count in counts.all[0] { seenCounts.append(count) }
        #expect(seenWhole == [0, 1, 2])
        #expect(seenCounts == [0, 1, 2])
    }

    @Test("unlike them, sinkActivity made inside a reaction ends when the reaction runs again")
    func sinkActivityBelongsToTheReaction() {
        let store = TDStore(initialState: TDState())
        let got = TDLog<TDActivity>()
        let kept = TDLog<Subscription>()
        let reaction = observe {
            if store.state.count == 0, kept.count == 0 { kept.append(store.sinkActivity { got.append($0) }) }
        }
        store.send(.ping(1))
        store.increment()
        store.send(.ping(2))
        #expect(got.all == [.ping(1)])
        reaction.cancel()
    }
}
