import RippleStore
import Testing

@Suite("A @StateFields state, in a main-actor app target")
struct SelectionStoreTests {
    @Test("the macro lists its stored properties, and a Store of it commits and derives")
    func storeOfStateFields() {
        #expect(SelectionState.stateFields.map { $0.keyPath as AnyKeyPath } == [\SelectionState.selected, \.filter])
        let store = Store<SelectionState, Never>(initialState: SelectionState())
        let selected = store.derived(\.selected)
        let count = store.derived { $0.count }
        store.commit { $0.selected.insert(1) }
        store.commit { $0.selected.insert(2) }
        store.commit { $0.filter = .done }
        #expect(selected.value == [1, 2])
        #expect(count.value == 2)
        #expect(store.state.filter == .done)
        #expect(store.version == 3)
    }

    @Test("derived(from:) with one input, a closure or a function, in a main-actor target")
    func oneInputDerived() {
        let store = Store<SelectionState, Never>(initialState: SelectionState())
        let count = store.derived(from: \.selected) { $0.count }
        let described = store.derived(from: \.selected.count, transform: String.init(describing:))
        let both = store.derived(from: \.selected, \.filter) { selected, filter in
            selected.count + (filter == .done ? 10 : 0)
        }
        store.commit { $0.selected.insert(1) }
        store.commit { $0.filter = .done }
        #expect(count.value == 1)
        #expect(described.value == "1")
        #expect(both.value == 11)
    }
}
