import Foundation
import RippleMacros
import Testing

/// Fresh defaults for one test.
func scratchDefaults() -> UserDefaults {
    let name = "RippleTodoApp.\(UUID().uuidString)"
    let defaults = UserDefaults(suiteName: name)!
    defaults.removePersistentDomain(forName: name)
    return defaults
}

@Suite("The to-do app's view model and screen, in a main-actor app target")
struct TodoListModelTests {
    @Test("the model's methods change its properties and its derived values follow")
    func derivedValues() {
        let model = TodoListModel(defaults: scratchDefaults())
        model.add("milk")
        model.add("eggs")
        model.toggle(2)
        #expect(model.remaining.value == 1)
        model.filter.value = .done
        #expect(model.visible.value.map(\.title) == ["eggs"])
        model.clearDone()
        #expect(model.visible.value.isEmpty)
    }

    @Test("the filter is persisted")
    func persistedFilter() {
        let defaults = scratchDefaults()
        TodoListModel(defaults: defaults).filter.value = .active
        #expect(TodoListModel(defaults: defaults).filter.value == .active)
    }

    @Test("the badge's named reaction and the count's onChange follow the model")
    func badge() {
        let model = TodoListModel(defaults: scratchDefaults())
        let badge = TodoBadge(model: model)
        #expect(badge.text == "0 left")
        model.add("milk")
        model.add("eggs")
        #expect(badge.text == "2 left")
        model.toggle(1)
        model.filter.value = .active
        #expect(badge.text == "1 left")
        #expect(badge.countChanges == ["0→1", "1→2", "2→1"])
    }
}
