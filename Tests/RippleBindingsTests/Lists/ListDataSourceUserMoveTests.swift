import Ripple
import RippleBindings
import Testing

/// A user's move written to a source that changed since the view was last told.
@Suite struct ListDataSourceUserMoveTests {
    /// Rows 1, 2, 3 in a source, shown by a table through a data source that allows moves and
    /// deletions; the source's later changes reach the table when `manual` runs.
    private func shownList() -> (ManualScheduler, Stored<[Row]>, ListDataSource<Int, Row>, FakeTableView) {
        let manual = ManualScheduler()
        let source = Stored([1, 2, 3].map { Row(id: $0, title: "\($0)") })
        let dataSource = ListDataSource(items: source, on: manual.scheduler)
        dataSource.allowsMoving = true
        dataSource.allowsDeletion = true
        let table = FakeTableView()
        table.connect(dataSource)
        manual.runAll()
        return (manual, source, dataSource, table)
    }

    @Test("a move of an item the app removed (the view not told yet) does not bring it back")
    func moveOfARemovedItem() {
        let (manual, source, dataSource, table) = shownList()
        source.value.removeAll { $0.id == 2 }  // the app removes 2; the view is not told yet
        table.rows.mutate { $0[0].insert($0[0].remove(at: 1), at: 0) }  // the view moves the row
        dataSource.userDidMove(from: ListIndex(item: 1), to: ListIndex(item: 0))  // the user drags 2 up
        manual.runAll()
        #expect(source.value.map(\.id) == [1, 3])
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
    }

    @Test("a move lands after the item shown before it, with an insertion not shown yet")
    func moveWithAPendingInsertion() {
        let (manual, source, dataSource, table) = shownList()
        source.value.insert(Row(id: 9, title: "9"), at: 0)  // not shown yet
        table.rows.mutate { $0[0].insert($0[0].remove(at: 0), at: 2) }  // the view moves the row
        dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 2))  // shown: 2, 3, 1
        manual.runAll()
        #expect(source.value.map(\.id) == [9, 2, 3, 1])
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
    }

    @Test("a move and a deletion land where the user put them, with an insertion not shown yet")
    func moveAndDeleteWithAPendingInsertion() {
        let (manual, source, dataSource, table) = shownList()
        source.value.insert(Row(id: 9, title: "9"), at: 0)
        table.rows.mutate { $0[0].insert($0[0].remove(at: 0), at: 2) }
        dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 2))  // shown: 2, 3, 1
        table.rows.mutate { _ = $0[0].remove(at: 0) }
        dataSource.userDidDelete(at: ListIndex(item: 0))  // shown: 3, 1
        manual.runAll()
        #expect(source.value.map(\.id) == [9, 3, 1])
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
    }

    @Test("a move to the top of a section is first in it, with an insertion not shown yet")
    func moveToTheTopWithAPendingInsertion() {
        let (manual, source, dataSource, table) = shownList()
        source.value.insert(Row(id: 9, title: "9"), at: 1)  // 1, 9, 2, 3; not shown yet
        table.rows.mutate { $0[0].insert($0[0].remove(at: 2), at: 0) }
        dataSource.userDidMove(from: ListIndex(item: 2), to: ListIndex(item: 0))  // shown: 3, 1, 2
        manual.runAll()
        #expect(source.value.map(\.id) == [3, 1, 9, 2])
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
    }
}
