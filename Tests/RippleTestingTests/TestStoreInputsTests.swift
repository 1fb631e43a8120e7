import Ripple
import RippleStore
import RippleTesting
import Testing

/// A setting mirrored from a `Stored` value by the reducer's global input, which runs for the
/// store's life.
private struct FontSetting: Reducer {
    struct State: Equatable { var fontSize = 0 }
    enum Action: Equatable, Sendable { case fontSizeChanged(Int), load }

    let source: Stored<Int>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .fontSizeChanged(let size):
            state.fontSize = size
            return .none
        case .load:
            // An effect of an action that never ends: still counted at the end.
            return .run { _ in try await Task.sleep(for: .seconds(3600)) }
        }
    }

    func bind() -> Effect<Action> {
        .values(of: source) { .fontSizeChanged($0) }
    }
}

@Suite("A test store and the reducer's global inputs")
struct TestStoreInputsTests {
    @Test("finish() does not count the inputs as still running")
    func inputsAreNotInFlight() async {
        let source = Stored(14)
        let store = TestStore(reducer: FontSetting(source: source), initialState: FontSetting.State())
        await store.receive(.fontSizeChanged(14)) { $0.fontSize = 14 }
        source.value = 16
        await store.receive(.fontSizeChanged(16)) { $0.fontSize = 16 }
        await store.finish()
    }

    @Test("an action's effect still running is reported next to a running input")
    func actionEffectsStillCount() async {
        let store = TestStore(reducer: FontSetting(source: Stored(14)), initialState: FontSetting.State())
        await store.receive(.fontSizeChanged(14)) { $0.fontSize = 14 }
        await store.send(.load)
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.description.contains("1 effect(s) are still running")
        }
    }

    @Test("a main-actor test store does not count the inputs either")
    @MainActor
    func mainActorInputs() async {
        let source = Stored(14)
        let store = MainActorTestStore(reducer: FontSetting(source: source), initialState: FontSetting.State())
        await store.receive(.fontSizeChanged(14)) { $0.fontSize = 14 }
        source.value = 16
        await store.receive(.fontSizeChanged(16)) { $0.fontSize = 16 }
        await store.finish()
    }

    @Test("a main-actor test store released without finish() does not count the inputs")
    @MainActor
    func mainActorInputsAtRelease() async {
        var store: MainActorTestStore<FontSetting>? = MainActorTestStore(
            reducer: FontSetting(source: Stored(14)), initialState: FontSetting.State())
        await store?.receive(.fontSizeChanged(14)) { $0.fontSize = 14 }
        store = nil
    }
}

@Suite("A non-exhaustive test store's end")
struct NonExhaustiveFinishTests {
    @Test("finish() reduces what effects sent and no step received")
    func finishReduces() async {
        let store = TestStore(reducer: Counter(), initialState: Counter.State(), exhaustivity: .off)
        await store.send(.twice) { $0.number = 0 }  // its two .increment wait for the next step
        await store.finish()
        #expect(store.state.number == 2)
    }

    @Test("a main-actor test store's finish() reduces them too")
    @MainActor
    func mainActorFinishReduces() async {
        let store = MainActorTestStore(reducer: Counter(), initialState: Counter.State(), exhaustivity: .off)
        await store.send(.twice)
        await store.finish()
        #expect(store.state.number == 2)
    }
}
