import Ripple
import RippleBindings
import RippleModels
import Testing

/// A main-actor value type that is not `Sendable`: what `ListDataSource` cannot show.
private final class Task_: Identifiable, Equatable {
    let id: Int
    var title: String
    init(_ id: Int, _ title: String) { self.id = id; self.title = title }
    static func == (lhs: Task_, rhs: Task_) -> Bool { lhs.id == rhs.id && lhs.title == rhs.title }
}

@MainActor
@Suite("A main-actor list data source")
struct MainActorListDataSourceTests {
    @Test("sections from a main-actor computed value reach the view, and reads in update are not dependencies")
    func sectionsAndUntrackedUpdate() {
        let open = Stored([1, 2])
        let done = Stored([3])
        let unrelated = Stored(0)
        let sections = MainActorComputed {
            [
                ListSection(id: "open", items: open.value.map { Task_($0, "t\($0)") }),
                ListSection(id: "done", items: done.value.map { Task_($0, "t\($0)") }),
            ]
        }
        let dataSource = MainActorListDataSource(sections: sections, isUpdated: { $0 != $1 })
        var updates: [ListUpdate] = []
        let connection = dataSource.connect { update in
            _ = unrelated.value
            updates.append(update)
        }
        #expect(dataSource.numberOfSections == 2)
        #expect(dataSource.sectionID(at: 1) == "done")
        open.value = [2]
        done.value = [3, 1]
        #expect(updates.count == 2)
        #expect(updates[0].itemDeletions == [ListIndex(section: 0, item: 0)])
        #expect(dataSource.item(at: ListIndex(section: 1, item: 1)).id == 1)
        unrelated.value = 1
        #expect(updates.count == 2)
        connection.cancel()
        open.value = []
        #expect(updates.count == 2)
        #expect(dataSource.numberOfItems(inSection: 0) == 1)
    }

    @Test("a write made on another thread is told on the main actor")
    func writeFromAnotherThread() async {
        let items = Stored([1])
        let dataSource = MainActorListDataSource(items: { items.value.map { Task_($0, "t\($0)") } })
        var updates: [ListUpdate] = []
        dataSource.connect { updates.append($0) }
        await Task.detached { items.value = [1, 2] }.value
        for _ in 0..<1000 where updates.isEmpty { await Task.yield() }
        #expect(updates.map(\.itemInsertions) == [[ListIndex(item: 1)]])
        #expect(dataSource.numberOfItems(inSection: 0) == 2)
    }
}
