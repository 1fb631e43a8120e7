import RippleStore
import Testing

/// Issue 10 item 5: a binding derived from a key path, writing back through it.
@Suite("StoreBinding")
struct StoreBindingTests {
    @Test("reading a binding tracks its key path only")
    func readingTracksOnlyItsPath() {
        let store = TDStore(initialState: TDState())
        let name = store.binding(\.name)
        let runs = TDCounter()
        let seen = TDLog<String>()
        let subscription = observe {
            runs.increment()
            seen.append(name.value)
        }
        store.increment()
        store.commit { $0.profile.first = "x" }
        #expect(runs.value == 1, "a reader of binding(\\.name) ran for a commit that did not change name")
        store.rename("Ada")
        #expect(seen.all == ["", "Ada"])
        subscription.cancel()
    }

    @Test("inside a subscriber, a binding reads back its own commits: no write is lost")
    func readsBackInsideSubscriber() {
        let store = TDStore(initialState: TDState())
        let count = store.binding(\.count)
        let reads = TDLog<Int>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            guard changes.current.name == "go", changes.previous?.name != "go" else { return }
            count.value = count.value + 1
            reads.append(count.value)
            count.value = count.value + 1
            reads.append(count.value)
        }
        store.rename("go")
        #expect(reads.all == [1, 2])
        #expect(store.currentState.count == 2, "a write through the binding was lost")
        subscription.cancel()
    }

    @Test("writing a binding commits: subscribers see it, the version moves")
    func writingCommits() {
        let store = TDStore(initialState: TDState())
        let name = store.binding(\.name)
        let deliveries = TDLog<Changes<TDState>>()
        let subscription = store.sinkState(dropsFirst: true) { deliveries.append($0) }
        name.value = "Ada"
        #expect(store.currentState.name == "Ada")
        #expect(store.version == 1)
        #expect(deliveries.count == 1)
        #expect(deliveries.all.first?.current.name == "Ada")
        #expect(deliveries.all.first?.previous?.name == "")
        // Writing an equal value commits nothing.
        name.value = "Ada"
        #expect(store.version == 1)
        #expect(deliveries.count == 1)
        name.update { $0 += "!" }
        #expect(store.currentState.name == "Ada!")
        #expect(deliveries.count == 2)
        subscription.cancel()
    }

    @Test("update is atomic under 8 threads")
    func updateIsAtomic() {
        let store = TDStore(initialState: TDState())
        let count = store.binding(\.count)
        let perThread = 500
        runOnThreads(8) { _ in
            for _ in 0..<perThread { count.update { $0 += 1 } }
        }
        #expect(store.currentState.count == 8 * perThread)
        #expect(count.value == 8 * perThread)
        #expect(store.version == UInt64(8 * perThread))
    }

    @Test("dynamic-member projection reads and writes back through the key path")
    func dynamicMemberProjection() {
        let store = TDStore(initialState: TDState())
        let profile = store.binding(\.profile)
        let first = profile.first
        let runs = TDCounter()
        let subscription = observe {
            runs.increment()
            _ = first.value
        }
        first.value = "Ada"
        profile.last.value = "Lovelace"
        #expect(store.currentState.profile == TDProfile(first: "Ada", last: "Lovelace"))
        #expect(profile.value == TDProfile(first: "Ada", last: "Lovelace"))
        #expect(runs.value == 2, "a reader of profile.first ran for a change of profile.last")
        first.update { $0 = $0.uppercased() }
        #expect(store.currentState.profile.first == "ADA")
        subscription.cancel()
    }

    @Test("valueBinding reads, writes and updates through the store")
    func valueBinding() {
        let store = TDStore(initialState: TDState())
        let count = store.binding(\.count).valueBinding
        let runs = TDCounter()
        let subscription = observe {
            runs.increment()
            _ = count.value
        }
        count.value = 3
        count.update { $0 += 1 }
        count.value += 1
        store.rename("x")
        #expect(store.currentState.count == 5)
        #expect(count.value == 5)
        #expect(runs.value == 4)
        let profile = store.binding(\.profile).valueBinding
        profile.first.value = "Ada"
        #expect(store.currentState.profile.first == "Ada")
        subscription.cancel()
    }

    @Test("valueBinding's update is atomic under 8 threads (it commits once, like update)")
    func valueBindingUpdateIsAtomic() {
        let store = TDStore(initialState: TDState())
        let count = store.binding(\.count).valueBinding
        let perThread = 300
        runOnThreads(8) { _ in
            for _ in 0..<perThread { count.update { $0 += 1 } }
        }
        #expect(store.currentState.count == 8 * perThread)
    }
}
