import Ripple
import RippleStore
import Testing

private struct Draft: Equatable {
    var text = ""
    var edits = 0
}

/// Verge's `add(middleware:)` on the main-actor store.
@MainActor
@Suite("MainActorStore: add(middleware:)")
struct MainActorStoreMiddlewareTests {
    @Test("commits after add(middleware:) go through the steps, in order, before delivery")
    func stepsRunInOrder() {
        let store = MainActorStore<Draft, Never>(initialState: Draft())
        store.commit { $0.text = "before" }
        store.add(middleware: StoreMiddleware("trim") { state, _, _ in state.text = String(state.text.prefix(3)) })
        store.add(
            middleware: StoreMiddleware("count") { state, previous, transaction in
                if state.text != previous.text { state.edits += 1 }
                transaction.name = "counted"
            })
        var delivered: [String] = []
        let subscription = store.sinkState(dropsFirst: true) { changes in
            delivered.append("\(changes.text) \(changes.edits) \(changes.transaction.name ?? "")")
        }
        store.commit { $0.text = "abcdef" }
        #expect(store.currentState == Draft(text: "abc", edits: 1))
        #expect(delivered == ["abc 1 counted"])
        // A commit the middleware turns back into the same state changes nothing.
        store.commit { $0.text = "abcxyz" }
        #expect(store.version == 2)
        subscription.cancel()
    }
}
