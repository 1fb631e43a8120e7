import RippleStore
import Testing

/// A reducer whose actions send others at once (`.send`, `.merge`), logging each reduction.
private struct Tree: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable, Sendable { case a, b, c, d, e }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.log.append("\(action)")
        switch action {
        case .a: return .merge(.send(.b), .send(.c))
        case .b: return .merge(.send(.d), .send(.e))
        case .c, .d, .e: return .none
        }
    }
}

@Suite("Reducer follow-up order")
struct ReducerFollowUpOrderTests {
    @Test("what an effect sends at once is reduced depth first, before send returns")
    func depthFirst() {
        let store = ReducerStore(reducer: Tree(), initialState: Tree.State())
        store.send(.a)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c"])
        store.send(.b)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c", "b", "d", "e"])
    }
}
