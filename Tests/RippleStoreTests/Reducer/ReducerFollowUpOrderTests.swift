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

/// A reducer whose actions mostly send one action at once (`.send`, which a store reduces next
/// without an array of follow-ups), with a merge inside the chain.
private struct Chain: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable, Sendable { case a, b, c, d, e, f }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.log.append("\(action)")
        switch action {
        case .a: return .send(.b)
        case .b: return .merge(.send(.c), .send(.d))
        case .c: return .send(.e)
        case .d, .e, .f: return .none
        }
    }
}

@Suite("Reducer follow-up order")
struct ReducerFollowUpOrderTests {
    @Test("a chain of .send effects is reduced depth first, then what subscribers sent")
    func sendChainDepthFirst() {
        let store = ReducerStore(reducer: Chain(), initialState: Chain.State())
        let sentFromSink = RDBox(false)
        let sink = store.sinkState(dropsFirst: true) { changes in
            // Sent during the first commit's delivery: reduced after the whole chain.
            if !sentFromSink.value, changes.current.log == ["a"] {
                sentFromSink.value = true
                store.send(.f)
            }
        }
        store.send(.a)
        #expect(store.currentState.log == ["a", "b", "c", "e", "d", "f"])
        store.send(.c)
        #expect(store.currentState.log == ["a", "b", "c", "e", "d", "f", "c", "e"])
        _ = sink
    }

    @Test("a main-actor store reduces a chain of .send effects depth first, then what subscribers sent")
    @MainActor
    func mainActorSendChainDepthFirst() {
        let store = MainActorReducerStore(reducer: Chain(), initialState: Chain.State())
        var sentFromSink = false
        let sink = store.sinkState(dropsFirst: true) { changes in
            // Sent during the first commit's delivery: queued behind the whole chain.
            if !sentFromSink, changes.current.log == ["a"] {
                sentFromSink = true
                store.send(.f)
            }
        }
        store.send(.a)
        #expect(store.currentState.log == ["a", "b", "c", "e", "d", "f"])
        store.send(.c)
        #expect(store.currentState.log == ["a", "b", "c", "e", "d", "f", "c", "e"])
        _ = sink
    }

    @Test("what an effect sends at once is reduced depth first, before send returns")
    func depthFirst() {
        let store = ReducerStore(reducer: Tree(), initialState: Tree.State())
        store.send(.a)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c"])
        store.send(.b)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c", "b", "d", "e"])
    }

    /// A `MainActorReducerStore` reduces a send with nothing queued without its queue (its
    /// generic entries cost 4 500 instructions a send): what follows it keeps the queue's order.
    @Test("a main-actor store reduces follow-ups depth first, then what subscribers sent")
    @MainActor
    func mainActorDepthFirstThenSubscribers() {
        let store = MainActorReducerStore(reducer: Tree(), initialState: Tree.State())
        var sentFromSink = false
        let sink = store.sinkState(dropsFirst: true) { changes in
            // Sent during the first commit's delivery: queued behind `a`'s follow-ups.
            if !sentFromSink, changes.current.log == ["a"] {
                sentFromSink = true
                store.send(.e)
            }
        }
        store.send(.a)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c", "e"])
        store.send(.c)
        #expect(store.currentState.log == ["a", "b", "d", "e", "c", "e", "c"])
        _ = sink
    }
}
