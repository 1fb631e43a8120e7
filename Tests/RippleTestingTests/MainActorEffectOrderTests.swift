import RippleStore
import RippleTesting
import Testing

/// On the main-actor store, the actions an effect sends come back in the order they were sent,
/// whichever way it sends them: a `create` continuation (queued for the main actor) and a
/// `.send` step after it in a `concat`.
@MainActor
@Suite struct MainActorEffectOrderTests {
    private struct Order: Reducer {
        struct State: Equatable { var log: [String] = [] }
        enum Action: Equatable, Sendable { case viaCreate, a, b }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .viaCreate:
                state.log.append("viaCreate")
                return .concat(
                    .create { continuation in
                        continuation.send(.a)
                        continuation.finish()
                    },
                    .send(.b))
            case .a:
                state.log.append("a")
                return .none
            case .b:
                state.log.append("b")
                return .none
            }
        }
    }

    @Test("a create continuation's action is reduced before the concat's next .send")
    func createThenSend() async {
        let store = MainActorReducerStore(reducer: Order(), initialState: Order.State())
        store.send(.viaCreate)
        for _ in 0..<10_000 where store.currentState.log.count < 3 { await Task.yield() }
        #expect(store.currentState.log == ["viaCreate", "a", "b"])
    }

    @Test("the main-actor test store receives them in that order")
    func createThenSendReceived() async {
        let store = MainActorTestStore(reducer: Order(), initialState: Order.State())
        await store.send(.viaCreate) { $0.log = ["viaCreate"] }
        #expect(store.receivedActions == [.a, .b])
        await store.receive(.a) { $0.log.append("a") }
        await store.receive(.b) { $0.log.append("b") }
        await store.finish()
    }
}
