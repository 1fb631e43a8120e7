import Ripple
import RippleBindings
import RippleModels
import Testing

/// One data source keeping a set of selected ids and the latest selected id in agreement.
@Suite struct ListSelectionSyncTests {
    private func items(_ ids: [Int]) -> [Row] { ids.map { Row(id: $0, title: "\($0)") } }

    @Test("the user's selections fill the set; the latest is the one selected last, or the one before once it leaves")
    func userSelectionsKeepBothInSync() {
        let source = Stored(items([1, 2, 3]))
        let selected = Stored<Set<Int>>([]), latest = Stored<Int?>(nil)
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selected, latest: latest)
        let table = FakeTableView()
        table.connect(dataSource)

        dataSource.userDidSelect(at: ListIndex(item: 2))
        dataSource.userDidSelect(at: ListIndex(item: 0))
        #expect(selected.value == [1, 3])
        #expect(latest.value == 1)
        #expect(table.selected.value == [ListIndex(item: 0), ListIndex(item: 2)])
        dataSource.userDidDeselect(at: ListIndex(item: 0))
        #expect(selected.value == [3])
        #expect(latest.value == 3)
        dataSource.userDidDeselect(at: ListIndex(item: 2))
        #expect(selected.value.isEmpty)
        #expect(latest.value == nil)
    }

    @Test("writing the latest selection replaces the set; writing nil empties it")
    func writingTheLatestReplacesTheSet() {
        let source = Stored(items([1, 2, 3]))
        let selected = Stored<Set<Int>>([1, 3]), latest = Stored<Int?>(nil)
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selected, latest: latest)
        #expect(latest.value == 3)  // the set wins at bind; several at once: the last in the list
        latest.value = 2
        #expect(selected.value == [2])
        latest.value = nil
        #expect(selected.value.isEmpty)
    }

    @Test("writing the set updates the latest: a new id becomes it, a removed one gives way to the one before")
    func writingTheSetUpdatesTheLatest() {
        let source = Stored(items([1, 2, 3]))
        let selected = Stored<Set<Int>>([]), latest = Stored<Int?>(2)
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selected, latest: latest)
        #expect(selected.value == [2])  // an empty set takes the latest at bind
        selected.value = [2, 1]
        #expect(latest.value == 1)
        selected.value = [2, 1, 3]
        #expect(latest.value == 3)
        selected.value = [2, 1]
        #expect(latest.value == 1)
        selected.value = [2]
        #expect(latest.value == 2)
        selected.value = []
        #expect(latest.value == nil)
    }

    @Test("an item deleted from the source leaves both selections")
    func deletionLeavesBoth() {
        let source = Stored(items([1, 2, 3]))
        let selected = Stored<Set<Int>>([]), latest = Stored<Int?>(nil)
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selected, latest: latest)
        let table = FakeTableView()
        table.connect(dataSource)
        dataSource.userDidSelect(at: ListIndex(item: 0))
        dataSource.userDidSelect(at: ListIndex(item: 1))
        source.value = items([1, 3])
        #expect(selected.value == [1])
        #expect(latest.value == 1)
        #expect(table.selected.value == [ListIndex(item: 0)])
    }
}
