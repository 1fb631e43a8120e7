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

@Suite("A main-actor reducer store's binding that sends")
struct SearchFieldBindingTests {
    @Test("a write sends the action, and reads follow the state")
    func aWriteSends() {
        let store = MainActorReducerStore(reducer: SearchFeature(catalog: []), initialState: SearchFeature.State())
        let query = store.binding(\.query, send: { .queryChanged($0) })
        var seen: [String] = []
        let label = observeOnMainActor { seen.append(query.value) }
        withExtendedLifetime(label) {
            query.value = "milk"
            store.send(.found(["Milk"]))  // another field: the reader stays quiet
            store.send(.queryChanged("eggs"))
        }
        #expect(store.currentState.query == "eggs")
        #expect(seen == ["", "milk", "eggs"])
    }

    @Test("a binding that outlives its store drops its writes")
    func outlivingTheStore() {
        var store: MainActorReducerStore<SearchFeature>? = MainActorReducerStore(
            reducer: SearchFeature(catalog: []), initialState: SearchFeature.State())
        let query = store!.binding(\.query, send: { .queryChanged($0) })
        store = nil
        query.value = "dropped"
        #expect(query.value == "")
    }
}
