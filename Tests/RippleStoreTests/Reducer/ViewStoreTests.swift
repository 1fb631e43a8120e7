import Testing
import RippleStore

@MainActor
@Suite struct ViewStoreTests {
    @Test func sendReducesAtOnceOnTheMainActor() {
        let store = ViewStore(reducer: RDCounter(), initialState: RDCounter.State())
        store.send(.increment)
        store.send(.twice)
        #expect(store.currentState.number == 3)
        #expect(store.state.number == 3)
    }

    @Test func effectActionsAreReducedOnTheMainActorNotOnTheEffectsThread() async {
        let sent = RDBox(false)
        let store = ViewStore(
            reducer: RDCounter(fetch: {
                defer { sent.value = true }
                return 42
            }),
            initialState: RDCounter.State()
        )
        store.send(.load)
        // Hold the main actor until the effect has sent its action from its own thread.
        while !sent.value {}
        for _ in 0..<10_000 where store.currentState.number == 0 {}
        // Not reduced: that needs the main actor, which this test holds.
        #expect(store.currentState.number == 0)
        #expect(await rdEventually { store.currentState.number == 42 })
    }

    @Test func subscribersOfAViewStoreRunOnTheMainActor() async {
        let store = ViewStore(reducer: RDCounter(fetch: { 7 }), initialState: RDCounter.State())
        let values = RDBox<[Int]>([])
        let subscription = store.store.sinkStateOnMainActor(dropsFirst: true) { changes in
            values.update { $0.append(changes.current.number) }
        }
        store.send(.load)
        #expect(await rdEventually { values.value == [7] })
        withExtendedLifetime(subscription) {}
    }

    @Test func bindingResetAndStreams() async {
        let store = ViewStore(reducer: RDCounter(), initialState: RDCounter.State())
        let text = store.binding(\.text, send: { .setText($0) })
        text.value = "typed"
        #expect(store.currentState.text == "typed")
        var numbers = store.states.number.makeAsyncIterator()
        store.send(.increment)
        #expect(await numbers.next() == 0)
        #expect(await numbers.next() == 1)
        store.reset()
        store.send(.increment)
        #expect(await numbers.next() == 2)
    }
}
