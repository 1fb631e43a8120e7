import RippleStore
import Testing

/// Verge's `store.add(middleware:)`: middleware added after the store was created.
@Suite("StoreMiddleware: added after creation")
struct StoreAddMiddlewareTests {
    private struct Marks: Equatable, Sendable {
        var count = 0
        var marks: UInt64 = 0
        var log: [String] = []
    }

    @Test("commits made after add(middleware:) go through it, after the initializer's, in order")
    func addedRunsAfterTheInitializers() {
        let first = StoreMiddleware<Marks>("first") { state, _, _ in state.log.append("first") }
        let store = Store<Marks, Never>(initialState: Marks(), middleware: [first])
        store.commit { $0.count = 1 }
        #expect(store.currentState.log == ["first"])
        // Verge's spelling: a statement, no result to keep.
        store.add(middleware: StoreMiddleware("second") { state, _, _ in state.log.append("second") })
        store.add(
            middleware: StoreMiddleware("third") { state, previous, transaction in
                state.log.append("third \(previous.count)->\(state.count)")
                transaction.name = "rewritten"
            })
        let names = TDLog<String>()
        let subscription = store.sinkState(dropsFirst: true) { names.append($0.transaction.name ?? "") }
        store.commit("two") { $0.count = 2 }
        #expect(store.currentState.log == ["first", "first", "second", "third 1->2"])
        #expect(names.all == ["rewritten"])
        subscription.cancel()
    }

    @Test("an added middleware can clamp a commit that would otherwise change the state")
    func addedCanClamp() {
        let store = Store<Marks, Never>(initialState: Marks())
        store.add(middleware: StoreMiddleware("clamp") { state, _, _ in state.count = min(state.count, 3) })
        store.commit { $0.count = 10 }
        #expect(store.currentState.count == 3)
        store.commit { $0.count = 20 }
        #expect(store.version == 1)
    }

    @Test("middleware added while other threads commit: every commit after the add goes through it")
    func addedWhileCommitting() {
        let store = Store<Marks, Never>(initialState: Marks())
        let rounds = 200
        runOnThreads(4) { thread in
            if thread == 0 {
                for bit in 0..<40 {
                    store.add(
                        middleware: StoreMiddleware("mark \(bit)") { state, _, _ in
                            state.marks |= 1 << UInt64(bit)
                        })
                    // A commit after the add returns goes through the new step.
                    store.commit { $0.count += 1 }
                    #expect(store.currentState.marks & (1 << UInt64(bit)) != 0)
                }
            } else {
                for _ in 0..<rounds { store.commit { $0.count += 1 } }
            }
        }
        #expect(store.currentState.count == 3 * rounds + 40)
        #expect(store.currentState.marks == (1 << 40) - 1)
    }
}
