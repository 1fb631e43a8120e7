import RippleStore
import Testing

struct TDSettings: Equatable, Sendable {
    var volume = 0
    var muted = false
}

struct TDAppState2: Equatable, Sendable {
    var title = ""
    var settings = TDSettings()
    var counter = 0
}

/// Actions on the whole state, kept outside the store.
final class TDWholeActions: Dispatcher<TDAppState2, Never, TDAppState2>, @unchecked Sendable {
    func increment() { commit("increment") { $0.counter += 1 } }
    func retitle(_ title: String) { commit { $0.title = title } }
}

/// Actions on the settings only.
final class TDSettingsActions: Dispatcher<TDAppState2, Never, TDSettings>, @unchecked Sendable {
    func louder() { commit("louder") { $0.volume += 1 } }
    func mute() { commit { $0.muted = true } }
}

/// Issue 10 item 8: dispatchers, whole and scoped.
@Suite("Dispatchers")
struct DispatcherTests {
    @Test("a whole-state dispatcher subclass commits to its store")
    func wholeStateSubclass() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2())
        let actions = TDWholeActions(target: store)
        let names = TDLog<String?>()
        let subscription = store.sinkState(dropsFirst: true) { names.append($0.transaction.name) }
        actions.increment()
        actions.retitle("Hi")
        #expect(store.currentState.counter == 1)
        #expect(store.currentState.title == "Hi")
        #expect(actions.currentState == store.currentState)
        #expect(actions.store === store)
        #expect(names.all == ["increment", nil])
        #expect(actions.commit { $0.counter * 10 } == 10)
        subscription.cancel()
    }

    @Test("a scoped dispatcher's commit changes only its sub-state")
    func scopedCommit() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2(title: "t", counter: 7))
        let settings = TDSettingsActions(target: store, scope: \.settings)
        settings.louder()
        settings.louder()
        settings.mute()
        #expect(store.currentState == TDAppState2(title: "t", settings: TDSettings(volume: 2, muted: true), counter: 7))
        #expect(settings.currentState == TDSettings(volume: 2, muted: true))
        #expect(store.version == 3)
    }

    @Test("a plain scoped Dispatcher(target:scope:) commits and returns the mutation's result")
    func plainScoped() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2())
        let dispatcher = Dispatcher<TDAppState2, Never, TDSettings>(target: store, scope: \.settings)
        let result = dispatcher.commit { settings -> Int in
            settings.volume = 4
            return settings.volume + 1
        }
        #expect(result == 5)
        #expect(store.currentState.settings.volume == 4)
    }

    @Test("a scoped sinkState sees only the sub-state and is not called for commits to other parts")
    func scopedSinkState() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2())
        let settings = TDSettingsActions(target: store, scope: \.settings)
        let deliveries = TDLog<Changes<TDSettings>>()
        let subscription = settings.sinkState { deliveries.append($0) }
        #expect(deliveries.count == 1)
        #expect(deliveries.all.first?.previous == nil)

        store.commit { $0.title = "other" }
        store.commit { $0.counter += 1 }
        #expect(deliveries.count == 1, "a commit to another part reached the scoped subscriber")

        settings.louder()
        store.commit { $0.settings.muted = true }  // through the store: still the sub-state
        let all = deliveries.all
        #expect(all.count == 3)
        #expect(all.map(\.current) == [TDSettings(), TDSettings(volume: 1), TDSettings(volume: 1, muted: true)])
        #expect(all.dropFirst().map(\.previous) == [TDSettings(), TDSettings(volume: 1)])
        #expect(all[1].hasChanges(\.volume))
        #expect(!all[1].hasChanges(\.muted))
        #expect(all[1].transaction.name == "louder")
        subscription.cancel()
        settings.louder()
        #expect(deliveries.count == 3)
    }

    @Test("scoped sinkState(dropsFirst:) skips the current sub-state")
    func scopedSinkStateDropsFirst() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2())
        let settings = TDSettingsActions(target: store, scope: \.settings)
        let volumes = TDLog<Int>()
        let subscription = settings.sinkState(dropsFirst: true) { volumes.append($0.current.volume) }
        settings.louder()
        #expect(volumes.all == [1])
        subscription.cancel()
    }

    @Test("dispatcher.state.x is tracked per key path")
    func scopedStateTracksPerKeyPath() {
        let store = Store<TDAppState2, Never>(initialState: TDAppState2())
        let settings = TDSettingsActions(target: store, scope: \.settings)
        let runs = TDCounter()
        let volumes = TDLog<Int>()
        let subscription = observe {
            runs.increment()
            volumes.append(settings.state.volume)
        }
        settings.mute()
        store.commit { $0.title = "x" }
        #expect(runs.value == 1, "a reader of settings.state.volume ran for a commit that did not change volume")
        settings.louder()
        #expect(volumes.all == [0, 1])
        let whole = TDWholeActions(target: store)
        let counterRuns = TDCounter()
        let counterReader = observe {
            counterRuns.increment()
            _ = whole.state.counter
        }
        settings.louder()
        #expect(counterRuns.value == 1)
        whole.increment()
        #expect(counterRuns.value == 2)
        withExtendedLifetime((subscription, counterReader)) {}
    }

    @Test("a scoped sinkState ends when the store is released; the dispatcher holds its store")
    func scopedSinkStateLifetime() {
        var store: Store<TDAppState2, Never>? = Store(initialState: TDAppState2())
        weak let weakStore = store
        var settings: TDSettingsActions? = TDSettingsActions(target: store!, scope: \.settings)
        let deliveries = TDCounter()
        let subscription = settings!.sinkState { _ in deliveries.increment() }
        store = nil
        #expect(weakStore != nil, "a dispatcher holds its store")
        settings = nil
        #expect(weakStore == nil, "a scoped subscription kept the store alive")
        #expect(deliveries.value == 1)
        withExtendedLifetime(subscription) {}
    }
}
