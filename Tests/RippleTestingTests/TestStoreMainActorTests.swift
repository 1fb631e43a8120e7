import RippleStore
import RippleTesting
import Testing

/// A search whose query is looked up once the user stops typing, with its catalog injected.
private struct DebouncedSearch: Reducer {
    struct State: Equatable {
        var query = ""
        var results: [String] = []
    }

    enum Action: Equatable { case queryChanged(String), search, found([String]) }

    let catalog: [String]

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return .send(.search).debounce(id: "search", for: .milliseconds(300))
        case .search:
            let query = state.query
            let catalog = catalog
            return .run { send in await send(.found(catalog.filter { $0.lowercased().contains(query) })) }
        case .found(let results):
            state.results = results
            return .none
        }
    }
}

@MainActor
@Suite("TestStore from main-actor tests")
struct TestStoreMainActorTests {
    @Test("send and receive take trailing assertions that capture main-actor state")
    func trailingAssertions() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State())
        var assertions = 0
        await store.send(.increment) {
            assertions += 1
            $0.number = 1
        }
        await store.send(.twice)
        await store.receive(.increment) { $0.number = 2 }
        await store.receive(where: { $0 == .increment }) {
            assertions += 1
            $0.number = 3
        }
        await store.send(.load)
        await store.receive(.loaded(42)) { $0.number = 42 }
        await store.finish()
        #expect(assertions == 2)
    }

    @Test("a debounced effect, driven by the test clock from the main actor")
    func debounced() async {
        let store = TestStore(
            reducer: DebouncedSearch(catalog: ["milk", "oat milk", "eggs"]), initialState: DebouncedSearch.State())
        await store.send(.queryChanged("mi")) { $0.query = "mi" }
        await store.send(.queryChanged("milk")) { $0.query = "milk" }
        await store.clock.advance(by: .milliseconds(299))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .milliseconds(1))
        await store.receive(.search)
        await store.receive(.found(["milk", "oat milk"])) { $0.results = ["milk", "oat milk"] }
        await store.skipReceivedActions()
        await store.finish()
    }
}
