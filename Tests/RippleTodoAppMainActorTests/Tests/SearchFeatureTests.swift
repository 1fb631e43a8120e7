import RippleStore
import RippleTesting
import Testing

@Suite("The to-do app's reducer, tested from main-actor tests")
struct SearchFeatureTests {
    @Test("typing is debounced, then the results arrive")
    func debouncedSearch() async {
        let store = MainActorTestStore(
            reducer: SearchFeature(catalog: ["Milk", "Oat milk", "Eggs"]), initialState: SearchFeature.State())
        await store.send(.queryChanged("mi")) { $0.query = "mi" }
        await store.send(.queryChanged("milk")) { $0.query = "milk" }
        await store.clock.advance(by: .milliseconds(300))
        await store.receive(.search)
        await store.receive(.found(["Milk", "Oat milk"])) { $0.results = ["Milk", "Oat milk"] }
        await store.finish()
    }

    @Test("a reducer store reduces on the main actor")
    func reducerStore() {
        let store = MainActorReducerStore(reducer: SearchFeature(catalog: []), initialState: SearchFeature.State())
        store.send(.queryChanged("x"))
        #expect(store.currentState.query == "x")
    }
}
