import Observation
@testable import Ripple  // for `hasObserversForTesting`; the model uses the public API only
import RippleModels
import Testing

// Compiled with main-actor default isolation (see Package.swift): the tests, the model and
// the screen are all on the main actor without saying so.

@Suite("A to-do list view model under main-actor default isolation")
struct TodoListTests {
    @Test("derived values follow the model's properties")
    func derivedValues() {
        let list = TodoList()
        list.add("milk")
        list.add("eggs")
        list.add("bread")
        #expect(list.remaining.value == 3)
        list.toggle(2)
        #expect(list.remaining.value == 2)
        list.filter = .active
        #expect(list.visible.value.map(\.title) == ["milk", "bread"])
        list.filter = .done
        #expect(list.visible.value.map(\.title) == ["eggs"])
        list.clearDone()
        #expect(list.visible.value.isEmpty)
        #expect(list.remaining.value == 2)
    }

    @Test("a screen's reaction runs at once, and once per change or batch")
    func screenReaction() {
        let list = TodoList()
        let screen = TodoScreen(list: list)
        #expect(screen.header == "0 left · idle")
        #expect(screen.renders == 1)
        list.add("milk")
        #expect(screen.rows == ["☐ milk"])
        #expect(screen.renders == 2)
        batch {
            list.add("eggs")
            list.toggle(1)
        }
        #expect(screen.rows == ["☑ milk", "☐ eggs"])
        #expect(screen.header == "1 left · idle")
        #expect(screen.renders == 3)
        list.filter = .done
        #expect(screen.rows == ["☑ milk"])
        #expect(screen.renders == 4)
    }

    @Test("a value written on another thread reaches the screen on the main actor")
    func writeFromAnotherThread() async {
        let list = TodoList()
        let screen = TodoScreen(list: list)
        let status = list.syncStatus
        // Subscribed after the screen: the write sends the screen's run to the main actor
        // first, and the main actor runs them in that order.
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let relay = observeOnMainActor { continuation.yield(status.value) }
        await Task.detached { status.value = "syncing" }.value
        for await value in stream where value == "syncing" { break }
        #expect(screen.header == "0 left · syncing")
        relay.cancel()
    }

    @Test("Observation (a SwiftUI body) hears the model's properties and derived values")
    func observation() {
        let list = TodoList()
        let changes = Counter()
        withObservationTracking {
            _ = list.remaining.value
        } onChange: {
            changes.increment()
        }
        list.add("milk")
        #expect(changes.value == 1)
        withObservationTracking {
            _ = list.items
        } onChange: {
            changes.increment()
        }
        list.toggle(1)
        #expect(changes.value == 2)
    }

    @Test("the model and its screen are freed when their last owner lets them go")
    func freed() {
        weak var weakList: TodoList?
        weak var weakScreen: TodoScreen?
        let status: Stored<String>
        do {
            let list = TodoList()
            let screen = TodoScreen(list: list)
            weakList = list
            weakScreen = screen
            status = list.syncStatus
            list.add("milk")
            #expect(list.remaining.value == 1)
            #expect(status.hasObserversForTesting)
        }
        #expect(weakScreen == nil)
        #expect(weakList == nil)
        #expect(!status.hasObserversForTesting)
    }

    @Test("state shared across threads lives in a nonisolated Sendable class")
    func sharedState() async {
        let engine = SyncEngine()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<100 { engine.push() } }
            }
        }
        #expect(engine.label.value == "400 pushed")
    }
}

/// A count that onChange handlers (which may run on any thread) increment.
nonisolated final class Counter: Sendable {
    private let storage = Stored(0)
    var value: Int { storage.value }
    func increment() { storage.update { $0 += 1 } }
}
