import RippleStore
import Testing

/// A commit made inside a subscriber is applied at once: the committing thread reads it back
/// from `currentState` and `state` at once, while every subscriber and reader still receives
/// the commits one at a time, in order.
@Suite("Store commit inside a sink")
struct StoreCommitInsideSinkTests {
    @Test("a commit made inside a sink is visible in currentState and state at once on that thread")
    func visibleAtOnce() {
        let store = TDStore(initialState: TDState(count: 10))
        let reads = TDLog<Int>()
        let delivered = TDLog<Int>()
        let readerSaw = TDLog<Int>()
        let derivedSaw = TDLog<Int>()
        let handler = store.sinkState(dropsFirst: true) { changes in
            guard changes.current.flag, changes.previous?.flag == false else { return }
            let result = store.commit {
                $0.count += 1; return $0.count
            }
            reads.append(result)
            reads.append(store.currentState.count)
            reads.append(store.state.count)
            reads.append(store.state.wholeValue.count)
            // A handler that reads before it commits builds on every commit made so far.
            let count = store.currentState.count
            store.commit { $0.count = count + 1 }
            reads.append(store.currentState.count)
        }
        let second = store.sinkState { delivered.append($0.current.count) }
        // Tracked readers still see one published state per round, in order.
        let reader = observe { readerSaw.append(store.currentState.count) }
        let derived = store.derived(\.count).sinkValue { derivedSaw.append($0.current) }
        store.commit { $0.flag = true }
        #expect(reads.all == [11, 11, 11, 11, 12])
        #expect(store.currentState.count == 12)
        #expect(store.version == 3)
        #expect(delivered.all == [10, 10, 11, 12])
        #expect(readerSaw.all == [10, 10, 11, 12])
        #expect(derivedSaw.all == [10, 11, 12])
        withExtendedLifetime((handler, second, reader, derived)) {}
    }

    @Test("a handler that reads then commits loses no update under commits from 2 threads")
    func readThenCommitLosesNothing() {
        let store = TDStore(initialState: TDState())
        // Each delivery of a change of `a` adds 1 to `b` by reading `b` first (a lost update
        // would leave `b` short of the number of changes of `a`).
        let handler = store.sinkState(dropsFirst: true) { changes in
            changes.ifChanged(\.a) { _ in
                let b = store.currentState.b
                store.commit { $0.b = b + 1 }
                let again = store.currentState.b
                store.commit { $0.b = again + 1 }
            }
        }
        runOnThreads(2) { _ in
            for _ in 0..<200 { store.commit { $0.a += 1 } }
        }
        #expect(store.currentState.a == 400)
        #expect(store.currentState.b == 800)
        handler.cancel()
    }
}
