import Ripple
import RippleStore
import Testing

private struct MainSource: Equatable {
    var count = 0
    var label = ""
}

private struct MainTarget: Equatable {
    var source = MainSource()
    var count = 0
}

/// Verge's `assign(to:)` / `assignee(_:)` on the main-actor store.
@MainActor
@Suite("MainActorStore: assign(to:) and assignee(_:)")
struct MainActorStoreAssignTests {
    @Test("a main-actor store's state assigned to another's field, at once and on every change")
    func storeToField() {
        let source = MainActorStore<MainSource, Never>(initialState: MainSource(count: 1))
        let target = MainActorStore<MainTarget, Never>(initialState: MainTarget())
        let subscription = source.assign(to: target.assignee(\.source))
        #expect(target.currentState.source.count == 1)
        source.commit { $0.label = "x" }
        #expect(target.currentState.source == MainSource(count: 1, label: "x"))
        subscription.cancel()
        source.commit { $0.count = 2 }
        #expect(target.currentState.source.count == 1)
    }

    @Test("an unchanged value is not written again")
    func unchangedIsNotWritten() {
        let target = MainActorStore<MainTarget, Never>(initialState: MainTarget())
        let assign = target.assignee(\.count)
        target.commit { $0.count = 9 }
        assign(Changes(previous: 1, current: 1))
        #expect(target.currentState.count == 9)
        assign(Changes(previous: 1, current: 2))
        #expect(target.currentState.count == 2)
    }
}
