import Foundation
import RippleBindings
import RippleMacros
import Testing

@Suite("The to-do app's table, fed by the model's main-actor computed list")
struct TodoScreenTests {
    @Test("the table shows the visible to-dos and is told each change as one update")
    func tableFollowsTheModel() {
        let model = TodoListModel(defaults: scratchDefaults())
        model.add("milk")
        let screen = TodoScreen(model: model)
        #expect(screen.table.rows == ["☐ milk"])
        #expect(screen.table.updates.isEmpty)

        model.add("eggs")
        #expect(screen.table.rows == ["☐ milk", "☐ eggs"])
        #expect(screen.table.updates.last?.itemInsertions == [ListIndex(item: 1)])

        model.toggle(1)
        #expect(screen.table.rows == ["☑ milk", "☐ eggs"])
        #expect(screen.table.updates.last?.itemUpdates == [ListIndex(item: 0)])

        model.filter.value = .active
        #expect(screen.table.rows == ["☐ eggs"])
        #expect(screen.table.updates.last?.itemDeletions == [ListIndex(item: 0)])
        #expect(screen.table.updates.count == 3)
        #expect(screen.dataSource.index(of: 2) == ListIndex(item: 0))
    }
}
