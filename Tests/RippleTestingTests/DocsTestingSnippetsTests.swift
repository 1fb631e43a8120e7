// The code of the RippleTesting catalog, compiled and run.
import RippleStore
import RippleTesting
import Testing

private struct Search: Reducer {
    struct State: Equatable { var query = "" }
    enum Action: Equatable { case queryChanged(String), search }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return Effect.send(.search).debounce(id: "search", for: .milliseconds(300))
        case .search:
            return .none
        }
    }
}

@Suite struct DocsTestingSnippetsTests {
    @Test func gettingStarted() async {
        let store = TestStore(reducer: Counter(fetch: { 42 }), initialState: Counter.State())
        await store.send(.increment) { $0.number = 1 }
        await store.send(.decrement) { $0.number = 0 }
        await store.send(.twice)
        await store.receive(.increment) { $0.number = 1 }
        await store.receive(.increment) { $0.number = 2 }
        await store.send(.load)
        await store.receive(.loaded(42)) { $0.number = 42 }
        await store.finish()
    }

    @Test func time() async {
        let clock = TestClock()
        let store = TestStore(reducer: Search(clock: clock), initialState: Search.State(), clock: clock)
        await store.send(.queryChanged("rip")) { $0.query = "rip" }
        await store.advance(by: .milliseconds(299))
        #expect(store.receivedActions.isEmpty)
        await store.advance(by: .milliseconds(1))
        await store.receive(.search)
        await store.finish()
    }

    @Test func nonExhaustive() async {
        let store = TestStore(reducer: Counter(fetch: { 3 }), initialState: Counter.State(), exhaustivity: .off)
        await store.send(.twice)  // its two .increment wait
        await store.send(.increment) { $0.number = 3 }  // reduced first, then this one
        await store.send(.twice)
        await store.finish()  // reduces the last two: number == 5
        #expect(store.state.number == 5)
    }
}
