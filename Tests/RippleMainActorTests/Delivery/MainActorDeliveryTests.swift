import Ripple
import RippleModels
import RippleStore
import Testing

// Compiled with main-actor default isolation: the state, the model and the handlers are on the
// main actor without saying so, with no `nonisolated` and no `@unchecked Sendable`. These are
// the deliveries that call a main-actor closure without a check of the executor in optimized
// builds (an event's main-actor handlers, a store's main-actor subscribers) and a model's
// property reached through its inlined accessor.

struct Pointer: Equatable {
    var x = 0
    var y = 0
}

/// A `Store`'s state (a store shared with other threads). Its conformance to `StateFields`, a
/// `Sendable` protocol, makes it nonisolated, so a `Store` takes it with nothing written about
/// isolation (as `@StateFields` does without the macro).
struct Screen: Equatable, StateFields {
    var title = ""
    var taps = 0
    static let stateFields: [StateField<Screen>] = [StateField(\.title), StateField(\.taps)]
}

final class CountModel: ObservableModel {
    @Observed var count = 0
}

@Suite("Deliveries in a main-actor app target")
struct MainActorDeliveryTests {
    @Test("an event's main-actor handlers get each value sent on the main thread at once, in order")
    func eventHandlersInOrder() {
        let event = Event<Pointer>()
        var seen: [String] = []
        let first = event.subscribeOnMainActor { seen.append("first \($0.x)") }
        let second = event.subscribeOnMainActor { seen.append("second \($0.x)") }
        event.send(Pointer(x: 1))
        #expect(seen == ["first 1", "second 1"])
        event.send(Pointer(x: 2))
        #expect(seen == ["first 1", "second 1", "first 2", "second 2"])
        first.cancel()
        event.send(Pointer(x: 3))
        #expect(seen == ["first 1", "second 1", "first 2", "second 2", "second 3"])
        _ = second
    }

    @Test("a store's main-actor subscribers get each commit made on the main thread at once")
    func storeMainActorSubscribers() {
        let store = Store<Screen, Never>(initialState: Screen())
        var titles: [String] = []
        var taps: [Int] = []
        let subscription = store.sinkStateOnMainActor(dropsFirst: true) { changes in
            changes.ifChanged(\.title) { titles.append($0) }
            changes.ifChanged(\.taps) { taps.append($0) }
        }
        store.commit { $0.title = "Inbox" }
        #expect(titles == ["Inbox"] && taps.isEmpty)
        store.commit { $0.taps += 1 }
        store.commit { $0.title = "Sent" }
        #expect(titles == ["Inbox", "Sent"] && taps == [1])
        _ = subscription
    }

    @Test("a model's property read, written and bound through its accessor")
    func modelProperty() {
        let counter = CountModel()
        var runs: [Int] = []
        let reaction = observeOnMainActor { runs.append(counter.count) }
        counter.count += 1
        counter.count = 5
        let count = counter.bindings.count
        count.value += 1
        #expect(counter.count == 6 && count.value == 6)
        #expect(runs == [0, 1, 5, 6])
        _ = reaction
    }
}
