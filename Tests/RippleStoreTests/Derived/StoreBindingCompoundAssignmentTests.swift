import RippleStore
import Testing

/// `binding.value += 1` on a store binding is one commit: from several threads, none is lost
/// (without a `_modify` holding the store's commit gate it read, then committed: 8 × 500
/// ended at 925).
@Suite("StoreBinding compound assignment")
struct StoreBindingCompoundAssignmentTests {
    struct Counters: Equatable, Sendable {
        var count = 0
        var items: [Int] = []
    }

    @Test("+= and append from 8 threads lose nothing")
    func compoundAssignmentIsAtomic() {
        let store = Store<Counters, Never>(initialState: Counters())
        let count = store.binding(\.count)
        let items = store.binding(\.items)
        runOnThreads(8) { thread in
            for index in 0..<500 {
                count.value += 1
                if index.isMultiple(of: 10) { items.value.append(thread) }
            }
        }
        #expect(store.currentState.count == 4_000)
        #expect(store.currentState.items.count == 400)
        #expect(store.version == 4_400)
    }

    @Test("an assignment that changes nothing commits nothing")
    func unchangedAssignment() {
        let store = Store<Counters, Never>(initialState: Counters())
        let count = store.binding(\.count)
        count.value += 0
        #expect(store.version == 0)
        count.value += 2
        #expect(store.currentState.count == 2)
        #expect(store.version == 1)
    }
}
