import RippleStore
import Testing

/// OneWay's `initialState`: the state a reducer store or a view store was created with, kept
/// after actions change the state.
@Suite("Reducer store initialState")
struct InitialStateTests {
    @Test("a reducer store keeps the state it was created with")
    func reducerStore() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State(number: 5))
        store.send(.increment)
        store.send(.setText("changed"))
        #expect(store.currentState.number == 6)
        #expect(store.initialState == RDCounter.State(number: 5))
    }

    @Test("a view store keeps the state it was created with")
    @MainActor func viewStore() {
        let store = ViewStore(reducer: RDCounter(), initialState: RDCounter.State(text: "first"))
        store.send(.increment)
        #expect(store.currentState.number == 1)
        #expect(store.initialState == RDCounter.State(text: "first"))
    }
}
