import RippleStore
import Testing

/// Collects what a `sinkState(on:)` subscriber saw, on its own executor.
private actor CoreCollector {
    var seen: [(version: UInt64, state: AppState, previous: AppState?)] = []
    func record(_ changes: Changes<AppState>) {
        seen.append((changes.version, changes.current, changes.previous))
    }
}

@Suite("Store subscriptions")
struct StoreSubscriptionTests {
    @Test("sinkState delivers the current state first, then each commit once")
    func currentFirstThenEachCommit() {
        let store = AppStore(initialState: AppState())
        store.commit { $0.count = 5 }
        let seen = Recorder<CoreDelivery>()
        let subscription = store.sinkState { changes in
            seen.append(
                CoreDelivery(
                    subscriber: "s", version: changes.version, state: changes.current, previous: changes.previous))
        }
        // The first delivery happened before sinkState returned.
        #expect(seen.values == [CoreDelivery(subscriber: "s", version: 1, state: AppState(count: 5), previous: nil)])
        store.commit { $0.name = "Ada" }
        store.commit { $0.name = "Ada" }  // empty
        store.increment()
        #expect(seen.values.map(\.version) == [1, 2, 3])
        #expect(seen.values.map(\.previous) == [nil, AppState(count: 5), AppState(name: "Ada", count: 5)])
        #expect(seen.values.last?.state == AppState(name: "Ada", count: 6))
        withExtendedLifetime(subscription) {}
    }

    @Test("dropsFirst skips the current state only")
    func dropsFirst() {
        let store = AppStore(initialState: AppState(count: 1))
        let seen = Recorder<CoreDelivery>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            seen.append(
                CoreDelivery(
                    subscriber: "s", version: changes.version, state: changes.current, previous: changes.previous))
        }
        #expect(seen.values.isEmpty)
        store.increment()
        // The first delivered change still knows the state it replaces.
        #expect(
            seen.values == [
                CoreDelivery(subscriber: "s", version: 1, state: AppState(count: 2), previous: AppState(count: 1))
            ])
        withExtendedLifetime(subscription) {}
    }

    @Test("the scan form keeps a running value, accumulated from every change")
    func scan() {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<String>()
        let subscription = store.sinkState(
            scan: 0,
            { total, changes in
                changes.ifChanged(\.count) { _ in total += 1 }
            }
        ) { changes, countChanges in
            seen.append("v\(changes.version):\(countChanges)")
        }
        store.increment()
        store.commit { $0.name = "x" }
        store.increment()
        #expect(seen.values == ["v0:1", "v1:2", "v2:2", "v3:3"])

        // With dropsFirst, the first state is accumulated but not delivered.
        let dropped = Recorder<String>()
        let second = store.sinkState(
            dropsFirst: true, scan: [Int](),
            { counts, changes in
                counts.append(changes.count)
            }
        ) { changes, counts in
            dropped.append("v\(changes.version):\(counts)")
        }
        #expect(dropped.values.isEmpty)
        store.increment()
        #expect(dropped.values == ["v4:[2, 3]"])
        withExtendedLifetime((subscription, second)) {}
    }

    @Test("cancel() stops deliveries at once")
    func cancel() {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<UInt64>()
        let subscription = store.sinkState { seen.append($0.version) }
        store.increment()
        subscription.cancel()
        store.increment()
        subscription.cancel()  // twice is harmless
        #expect(seen.values == [0, 1])
    }

    @Test("sinkStateOnMainActor runs synchronously for a subscription and commits made on the main actor")
    @MainActor
    func mainActorSynchronous() {
        let store = AppStore(initialState: AppState())
        var seen: [UInt64] = []
        let subscription = store.sinkStateOnMainActor { changes in
            MainActor.preconditionIsolated()
            seen.append(changes.version)
        }
        #expect(seen == [0])
        store.increment()
        #expect(seen == [0, 1])
        store.commit { $0.name = "main" }
        #expect(seen == [0, 1, 2])
        withExtendedLifetime(subscription) {}
    }

    @Test("sinkStateOnMainActor delivers a commit from another thread later, on the main actor, coalesced")
    @MainActor
    func mainActorFromAnotherThread() async {
        let store = AppStore(initialState: AppState())
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self)
        var seen: [(version: UInt64, previous: AppState?)] = []
        let subscription = store.sinkStateOnMainActor { changes in
            MainActor.preconditionIsolated()
            seen.append((changes.version, changes.previous))
            continuation.yield(changes.version)
        }
        store.increment()
        #expect(seen.map(\.version) == [0, 1])

        // The main actor is busy with this test while another thread commits three times: the
        // commits return without waiting for the main actor, so nothing is delivered yet.
        runOnThreads(1) { _ in
            store.increment()
            store.commit { $0.name = "elsewhere" }
            store.increment()
        }
        #expect(store.version == 4)
        #expect(seen.map(\.version) == [0, 1])

        for await version in stream where version == 4 { break }
        // One delivery with the latest state; `previous` is the state this subscriber saw last.
        #expect(seen.map(\.version) == [0, 1, 4])
        #expect(seen.last?.previous == AppState(count: 1))
        withExtendedLifetime(subscription) {}
    }

    @Test("sinkState(on:) delivers on the actor, in order, ending with the latest state")
    func onActor() async {
        let store = AppStore(initialState: AppState())
        let collector = CoreCollector()
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self)
        let subscription = store.sinkState(on: collector) { collector, changes in
            collector.record(changes)
            continuation.yield(changes.version)
        }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        for _ in 0..<20 { store.increment() }
        while let version = await iterator.next(), version < 20 {}
        let seen = await collector.seen
        #expect(seen.first?.version == 0)
        #expect(seen.last?.version == 20)
        #expect(seen.last?.state.count == 20)
        // Versions may be skipped (deliveries coalesce) but never repeated or reordered, and
        // `previous` is always the state delivered before.
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1.version > $0.version && $1.previous == $0.state })
        #expect(seen.allSatisfy { UInt64($0.state.count) == $0.version })
        withExtendedLifetime(subscription) {}
    }
}
