import Testing
@testable import RippleStore

/// A reducer with global inputs: a core node, an event and an async sequence.
struct RDSettings: Reducer {
    struct State: Equatable {
        var theme = ""
        var events: [String] = []
        var pushes: [Int] = []
    }

    enum Action: Sendable {
        case theme(String), event(String), push(Int)
    }

    let theme: Stored<String>
    let didExpire: Event<String>
    let pushes: AsyncStream<Int>
    let bound: RDBox<Int>
    /// How many values the inputs mapped to actions.
    var mapped = RDBox(0)

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .theme(let theme): state.theme = theme
        case .event(let event): state.events.append(event)
        case .push(let push): state.pushes.append(push)
        }
        return .none
    }

    func bind() -> Effect<Action> {
        bound.update { $0 += 1 }
        return .merge(
            .values(of: theme) { [mapped] in
                mapped.update { $0 += 1 }; return .theme($0)
            },
            .events(of: didExpire) { [mapped] in
                mapped.update { $0 += 1 }; return .event($0)
            },
            .sequence(
                pushes.map { [mapped] in
                    mapped.update { $0 += 1 }; return .push($0)
                })
        )
    }
}

@Suite struct GlobalInputsTests {
    private func make() -> (
        ReducerStore<RDSettings>, Stored<String>, Event<String>, AsyncStream<Int>.Continuation, RDBox<Int>
    ) {
        let theme = Stored("light")
        let event = Event<String>()
        let (pushes, continuation) = AsyncStream.makeStream(of: Int.self)
        let bound = RDBox(0)
        let store = ReducerStore(
            reducer: RDSettings(theme: theme, didExpire: event, pushes: pushes, bound: bound),
            initialState: RDSettings.State()
        )
        return (store, theme, event, continuation, bound)
    }

    @Test func externalSourcesBecomeActionsForTheLifeOfTheStore() async {
        let (store, theme, event, pushes, bound) = make()
        #expect(bound.value == 1)
        // A core node: its current value at once, then each change.
        #expect(store.currentState.theme == "light")
        theme.value = "dark"
        #expect(store.currentState.theme == "dark")
        // An event: each value from now on.
        event.send("expired")
        #expect(store.currentState.events == ["expired"])
        // An async sequence.
        pushes.yield(1)
        pushes.yield(2)
        #expect(await rdEventually { store.currentState.pushes == [1, 2] })
    }

    @Test func theInputsStopWhenTheStoreIsReleased() async {
        let theme = Stored("light")
        let event = Event<String>()
        let (pushes, continuation) = AsyncStream.makeStream(of: Int.self)
        let mapped = RDBox(0)
        var store: ReducerStore<RDSettings>? = ReducerStore(
            reducer: RDSettings(theme: theme, didExpire: event, pushes: pushes, bound: RDBox(0), mapped: mapped),
            initialState: RDSettings.State()
        )
        event.send("before")
        #expect(mapped.value == 2)  // the theme's first value, and the event
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil)
        theme.value = "dark"
        event.send("after")
        continuation.yield(1)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(mapped.value == 2)
    }

    @Test func resetBindsTheInputsAgain() async {
        let (store, theme, event, _, bound) = make()
        store.reset()
        #expect(bound.value == 2)
        // Bound once, not twice: one action per change.
        event.send("once")
        #expect(store.currentState.events == ["once"])
        theme.value = "blue"
        #expect(store.currentState.theme == "blue")
    }
}

@Suite struct StateStreamTests {
    @Test func theStateStreamEmitsOnlyWhenTheStateChanged() async {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        var states = store.states.makeAsyncIterator()
        store.send(.increment)
        store.send(.setText(""))  // no change: nothing published
        store.send(.increment)
        #expect(await states.next()?.number == 0)
        #expect(await states.next()?.number == 1)
        #expect(await states.next()?.number == 2)
    }

    @Test func aKeyPathStreamEmitsOnlyWhenThatPartChanged() async {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        var numbers = store.states.number.makeAsyncIterator()
        var texts = store.states.text.makeAsyncIterator()
        store.send(.setText("a"))
        store.send(.increment)
        store.send(.setText("b"))
        store.send(.increment)
        #expect(await numbers.next() == 0)
        #expect(await numbers.next() == 1)
        #expect(await numbers.next() == 2)
        #expect(await texts.next() == "")
        #expect(await texts.next() == "a")
        #expect(await texts.next() == "b")
    }

    @Test func nestedKeyPathStreams() async {
        struct Inner: Equatable, Sendable { var value = 0; var other = 0 }
        struct State: Equatable, Sendable { var inner = Inner() }
        let store = Store<State, Never>(initialState: State())
        var values = store.states.inner.value.makeAsyncIterator()
        store.commit { $0.inner.other = 1 }
        store.commit { $0.inner.value = 5 }
        #expect(await values.next() == 0)
        #expect(await values.next() == 5)
    }

    @Test func aStreamEndsWhenTheStoreIsReleased() async {
        var store: ReducerStore<RDCounter>? = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        var numbers = store!.states.number.makeAsyncIterator()
        #expect(await numbers.next() == 0)
        store = nil
        #expect(await numbers.next() == nil)
    }
}

@Suite struct StateStreamSubscriptionTests {
    @Test func aKeyPathStreamSeesChangesMadeBetweenTheAccessAndTheIteration() async {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let numbers = store.states.number
        store.send(.increment)
        store.send(.increment)
        var iterator = numbers.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
    }

    @Test func aDroppedStreamUnsubscribes() {
        let store = Store<RDCounter.State, Never>(initialState: RDCounter.State())
        weak var whole: _StateStreamHub<RDCounter.State>?
        weak var part: _StateStreamHub<Int>?
        do {
            let states = store.states
            let numbers = states.number
            whole = states.replay.hub
            part = numbers.replay.hub
            #expect(whole != nil && part != nil)
        }
        // Released, which cancelled their subscriptions.
        #expect(whole == nil)
        #expect(part == nil)
    }
}
