import Ripple
import RippleStore
import Testing

private struct Screen: Equatable {
    var title = "Home"
    var count = 0
}

/// Verge's `accumulate { }` on the main-actor store.
@MainActor
@Suite("MainActorStore: accumulate")
struct MainActorStoreAccumulateTests {
    @Test("parts run on the main actor, each when its value changed, after what dropFirst skips")
    func partsRunWhenChanged() {
        let store = MainActorStore<Screen, Never>(initialState: Screen())
        var log: [String] = []
        let subscription = store.accumulate {
            $0.ifChanged(\.title).do { log.append("title \($0)") }
            $0.ifChanged(\.count).dropFirst().do { log.append("count \($0)") }
        }
        store.commit { $0.count = 1 }
        store.commit { $0.title = "Away" }
        #expect(log == ["title Home", "count 1", "title Away"])
        subscription.cancel()
        store.commit { $0.count = 2 }
        #expect(log.count == 3)
    }

    @Test("the state form picks the parts by the state")
    func stateForm() {
        let store = MainActorStore<Screen, Never>(initialState: Screen())
        var log: [Int] = []
        let subscription = store.accumulate { builder, state in
            if state.title == "Home" {
                builder.ifChanged(\.count).do { log.append($0) }
            }
        }
        store.commit { $0.count = 1 }
        store.commit { $0.title = "Away" }
        store.commit { $0.count = 2 }
        #expect(log == [0, 1])
        _ = subscription
    }
}
