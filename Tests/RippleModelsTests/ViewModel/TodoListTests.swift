import Observation
@testable import Ripple
import RippleModels
import Testing

@Suite("A main-actor to-do list view model in Swift 6 mode")
@MainActor
struct TodoListTests {
    @Test("derived values follow the model's properties")
    func derivedValues() {
        let list = TodoList()
        list.add("milk")
        list.add("eggs")
        #expect(list.remaining.value == 2)
        list.toggle(1)
        list.filter = .active
        #expect(list.visible.value.map(\.title) == ["eggs"])
        #expect(list.remaining.value == 1)
    }

    @Test("a screen's reaction runs at once, and once per change or batch")
    func screenReaction() {
        let list = TodoList()
        let screen = TodoScreen(list: list)
        #expect(screen.header == "0 of 0 left · idle")
        list.add("milk")
        #expect(screen.header == "1 of 1 left · idle")
        batch {
            list.add("eggs")
            list.toggle(1)
            list.filter = .active
        }
        #expect(screen.header == "1 of 1 left · idle")
        #expect(screen.renders == 3)
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
            _ = list.filter
        } onChange: {
            changes.increment()
        }
        list.filter = .done
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
            #expect(screen.header == "1 of 1 left · idle")
            #expect(status.hasObserversForTesting)
        }
        #expect(weakScreen == nil)
        #expect(weakList == nil)
        #expect(!status.hasObserversForTesting)
    }
}

/// A count that onChange handlers (which may run on any thread) increment.
final class Counter: Sendable {
    private let storage = Stored(0)
    var value: Int { storage.value }
    func increment() { storage.update { $0 += 1 } }
}
