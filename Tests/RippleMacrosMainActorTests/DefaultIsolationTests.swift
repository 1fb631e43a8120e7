import RippleMacros
import Testing

// This module is compiled with `-default-isolation MainActor` (see Package.swift), as app
// targets are in Xcode 26: every declaration that says nothing else is main-actor isolated,
// this model and these tests included.

struct Item: Equatable, Sendable {
    var title: String
}

@RippleModel
final class TodoList {
    var items: [Item] = []
    /// Thread-safe storage: readable and bindable from any isolation.
    nonisolated var progress = 0.0
}

/// Accepts models in main-actor generic code (a main-actor model with state the macro leaves
/// alone has main-actor isolated conformances, which generic code requiring `Sendable` refuses).
func requireModel<Model: ObservableModel & Observable>(_: Model) {}

@Suite("@RippleModel in a module that is main-actor isolated by default")
struct DefaultIsolationTests {
    @Test("it is a main-actor model: main-actor generic code takes it")
    func conformancesAreMainActor() {
        let list = TodoList()
        requireModel(list)
        list.progress = 0.5
        #expect(list.progress == 0.5)
    }

    @Test("properties are tracked by Observation and Ripple; nonisolated ones are written from any thread")
    func tracking() async {
        let list = TodoList()
        let changes = Stored(0)
        withObservationTracking {
            _ = list.items
        } onChange: {
            changes.update { $0 += 1 }
        }
        list.items.append(Item(title: "Milk"))
        #expect(changes.value == 1)
        let percent = Computed { list.progress * 100 }
        await Task.detached { list.progress = 0.25 }.value
        #expect(percent.value == 25)
    }
}
