import Ripple
import RippleBindings
import RippleModels
import Testing

/// A table view as the data source sees it: the rows it shows, rebuilt from each update by the
/// batch-update rules, and the rows it shows selected.
final class FakeTableView: @unchecked Sendable {
    let rows = Locked<[[Row]]>([])
    let selected = Locked<[ListIndex]>([])
    let updates = Locked<[ListUpdate]>([])
    let broken = Locked<String?>(nil)

    func connect(_ dataSource: ListDataSource<Int, Row>) {
        dataSource.connect(
            update: { [self] update in
                updates.mutate { $0.append(update) }
                apply(update, dataSource)
            },
            selection: { [self] indices in selected.value = indices }
        )
        reload(dataSource)
    }

    func reload(_ dataSource: ListDataSource<Int, Row>) {
        rows.value = (0..<dataSource.numberOfSections).map { s in
            (0..<dataSource.numberOfItems(inSection: s)).map { dataSource.item(at: ListIndex(section: s, item: $0)) }
        }
    }

    /// Single-section updates, checked against the data source's new contents.
    private func apply(_ update: ListUpdate, _ dataSource: ListDataSource<Int, Row>) {
        guard update.sections.isEmpty else { return reload(dataSource) }
        let old = rows.value.first ?? []
        let new = (0..<dataSource.numberOfItems(inSection: 0)).map { dataSource.item(at: ListIndex(item: $0)) }
        let changes = ListChanges(
            deletions: update.itemDeletions.map(\.item),
            insertions: update.itemInsertions.map(\.item),
            moves: update.itemMoves.map { .init(from: $0.from.item, to: $0.to.item) },
            updates: update.itemUpdates.map(\.item)
        )
        guard let applied = applyAsTableView(changes, to: old, reading: new), applied == new else {
            broken.value = "update \(update) does not turn \(old) into \(new)"
            return
        }
        rows.value = [applied]
    }
}

@Suite struct ListDataSourceTests {
    private func rows(_ ids: [Int]) -> [Row] { ids.map { Row(id: $0, title: "\($0)") } }

    @Test("changes of the source reach the view as batch updates it can apply")
    func updates() {
        let source = Stored(rows([1, 2, 3]))
        let dataSource = ListDataSource(items: source)
        let table = FakeTableView()
        table.connect(dataSource)
        #expect(table.rows.value == [rows([1, 2, 3])])

        source.value = rows([3, 1, 4])
        source.value[0].title = "three"
        source.value.remove(at: 1)
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
        #expect(table.updates.value.count == 3)
        #expect(table.updates.value[1].itemUpdates == [ListIndex(item: 0)])
    }

    @Test("sections are matched by id; their items are diffed within them")
    func sections() {
        let source = Stored([
            ListSection(id: "today", items: rows([1, 2])),
            ListSection(id: "later", items: rows([3])),
        ])
        let dataSource = ListDataSource(sections: source, isUpdated: { $0 != $1 })
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        source.value = [
            ListSection(id: "later", items: rows([3, 4])),
            ListSection(id: "today", items: rows([2])),
            ListSection(id: "someday", items: rows([5])),
        ]
        var expected = ListUpdate()
        expected.sections = ListChanges(insertions: [2], moves: [.init(from: 1, to: 0)])
        expected.itemDeletions = [ListIndex(section: 0, item: 0)]
        expected.itemInsertions = [ListIndex(section: 0, item: 1)]
        #expect(updates.value == [expected])
        #expect(dataSource.sectionID(at: 2) == "someday")
        #expect(dataSource.numberOfItems(inSection: 0) == 2)
    }

    @Test("changes that arrive before the scheduler runs make one update")
    func coalesced() {
        let manual = ManualScheduler()
        let source = Stored(rows([1]))
        let dataSource = ListDataSource(items: source, on: manual.scheduler)
        let table = FakeTableView()
        table.connect(dataSource)
        source.value.append(Row(id: 2, title: "2"))
        source.value.append(Row(id: 3, title: "3"))
        source.value.remove(at: 0)
        #expect(dataSource.numberOfItems(inSection: 0) == 1)  // the view still shows the old list
        manual.runAll()
        #expect(table.updates.value.count == 1)
        #expect(table.rows.value == [rows([2, 3])])
        #expect(table.broken.value == nil)
    }

    @Test("multiple selection follows a Stored set of ids, both ways, and sends select and deselect events")
    func multipleSelection() {
        let source = Stored(rows([1, 2, 3]))
        let selection = Stored<Set<Int>>([])
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selection)
        let table = FakeTableView()
        table.connect(dataSource)
        let events = Locked<[String]>([])
        let onSelect = dataSource.didSelect.subscribe { row in events.mutate { $0.append("+\(row.id)") } }
        let onDeselect = dataSource.didDeselect.subscribe { row in events.mutate { $0.append("-\(row.id)") } }

        #expect(dataSource.userDidSelect(at: ListIndex(item: 0)))
        #expect(dataSource.userDidSelect(at: ListIndex(item: 2)))
        #expect(selection.value == [1, 3])
        #expect(table.selected.value == [ListIndex(item: 0), ListIndex(item: 2)])
        dataSource.userDidDeselect(at: ListIndex(item: 0))
        #expect(selection.value == [3])
        #expect(events.value == ["+1", "+3", "-1"])

        selection.value = [2]  // the model selects: the view follows
        #expect(table.selected.value == [ListIndex(item: 1)])
        withExtendedLifetime((onSelect, onDeselect)) {}
    }

    @Test("single selection: selecting another item replaces the selection and deselects the previous one")
    func singleSelection() {
        let source = Stored(rows([1, 2]))
        let selection = Stored<Int?>(nil)
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selection)
        let events = Locked<[String]>([])
        let onSelect = dataSource.didSelect.subscribe { row in events.mutate { $0.append("+\(row.id)") } }
        let onDeselect = dataSource.didDeselect.subscribe { row in events.mutate { $0.append("-\(row.id)") } }
        dataSource.connect(update: { _ in })
        dataSource.userDidSelect(at: ListIndex(item: 0))
        dataSource.userDidSelect(at: ListIndex(item: 1))
        #expect(selection.value == 2)
        #expect(events.value == ["+1", "-1", "+2"])
        withExtendedLifetime((onSelect, onDeselect)) {}
    }

    @Test("items that cannot be selected are refused")
    func unselectable() {
        let source = Stored(rows([1, 2]))
        let selection = Stored<Set<Int>>([])
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selection)
        dataSource.canSelectItem = { $0.id != 2 }
        #expect(!dataSource.canSelect(at: ListIndex(item: 1)))
        #expect(!dataSource.userDidSelect(at: ListIndex(item: 1)))
        #expect(selection.value.isEmpty)
        selection.value = [2]
        #expect(dataSource.selectedIndices.isEmpty)
    }

    @Test("selection stays consistent after moves and deletions")
    func selectionAfterMovesAndDeletions() {
        let source = Stored(rows([1, 2, 3, 4]))
        let selection = Stored<Set<Int>>([2, 4])
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selection)
        let table = FakeTableView()
        table.connect(dataSource)
        #expect(dataSource.selectedIndices == [ListIndex(item: 1), ListIndex(item: 3)])

        source.value = rows([4, 1, 2, 3])  // moved in the model
        #expect(table.selected.value == [ListIndex(item: 0), ListIndex(item: 2)])

        source.value = rows([1, 2, 3])  // 4 deleted in the model: it leaves the selection
        #expect(selection.value == [2])
        #expect(table.selected.value == [ListIndex(item: 1)])

        dataSource.allowsMoving = true
        dataSource.allowsDeletion = true
        dataSource.userDidMove(from: ListIndex(item: 1), to: ListIndex(item: 2))  // the user moves 2 last
        #expect(source.value.map(\.id) == [1, 3, 2])
        #expect(dataSource.selectedIndices == [ListIndex(item: 2)])
        dataSource.userDidDelete(at: ListIndex(item: 2))  // and deletes it
        #expect(source.value.map(\.id) == [1, 3])
        #expect(selection.value.isEmpty)
        #expect(table.broken.value == nil)
    }

    @Test("the user's moves and deletions are written back, and not sent back to the view")
    func userEditsAreNotEchoed() {
        let source = Stored(rows([1, 2, 3]))
        let dataSource = ListDataSource(items: source)
        dataSource.allowsMoving = true
        dataSource.allowsDeletion = true
        let table = FakeTableView()
        table.connect(dataSource)
        dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 2))
        #expect(source.value.map(\.id) == [2, 3, 1])
        dataSource.userDidDelete(at: ListIndex(item: 0))
        #expect(source.value.map(\.id) == [3, 1])
        #expect(table.updates.value.isEmpty)
        #expect(dataSource.numberOfItems(inSection: 0) == 2)
        source.value.append(Row(id: 9, title: "9"))  // a later change is sent as usual
        #expect(table.updates.value.count == 1)
    }

    @Test("with repeated ids, the user's move and deletion reach the item the view showed there")
    func userEditsWithRepeatedIDs() {
        let source = Stored([Row(id: 1, title: "x"), Row(id: 2, title: "b"), Row(id: 1, title: "y")])
        let dataSource = ListDataSource(items: source)
        dataSource.allowsMoving = true
        dataSource.allowsDeletion = true
        let table = FakeTableView()
        table.connect(dataSource)
        dataSource.userDidMove(from: ListIndex(item: 2), to: ListIndex(item: 0))  // "y" first
        #expect(source.value.map(\.title) == ["y", "x", "b"], "the source holds the move the view shows")
        dataSource.userDidDelete(at: ListIndex(item: 1))  // "x", the second item with id 1
        #expect(source.value.map(\.title) == ["y", "b"], "the source lost the item the user deleted")
        #expect(table.updates.value.isEmpty, "the view is sent nothing it did itself")
        #expect((0..<2).map { dataSource.item(at: ListIndex(item: $0)).title } == ["y", "b"])
    }

    @Test("a deleted item's id stays selected while another shown item has it")
    func deletionKeepsSelectionOfRepeatedID() {
        let source = Stored([Row(id: 1, title: "x"), Row(id: 1, title: "y")])
        let selection = Stored<Set<Int>>([1])
        let dataSource = ListDataSource(items: source)
        dataSource.allowsDeletion = true
        dataSource.bindSelection(selection)
        let table = FakeTableView()
        table.connect(dataSource)
        dataSource.userDidDelete(at: ListIndex(item: 0))
        #expect(selection.value == [1])
        dataSource.userDidDelete(at: ListIndex(item: 0))
        #expect(selection.value.isEmpty)
    }

    @Test("moving on a data source that does not allow it stops with a message saying how to allow it")
    func moveNotAllowed() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let dataSource = ListDataSource(items: Stored([Row(id: 1, title: "1"), Row(id: 2, title: "2")]))
                dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 1))
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("set allowsMoving"))
    }

    @Test("a data source made with stored sections writes the user's moves back to them")
    func storedSectionsAreEditable() {
        let sections = Stored([ListSection(id: 0, items: rows([1, 2, 3]))])
        let dataSource = ListDataSource(sections: sections)
        #expect(dataSource.isEditable)
        dataSource.allowsMoving = true
        let table = FakeTableView()
        table.connect(dataSource)
        dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 2))
        #expect(sections.value[0].items.map(\.id) == [2, 3, 1])
    }

    @Test("releasing the data source ends its connection")
    func release() {
        let source = Stored(rows([1]))
        let updates = Locked(0)
        var dataSource: ListDataSource<Int, Row>? = ListDataSource(items: source)
        dataSource!.connect(update: { _ in updates.mutate { $0 += 1 } })
        weak let weakSource = dataSource
        dataSource = nil
        #expect(weakSource == nil)
        source.value.append(Row(id: 2, title: "2"))
        #expect(updates.value == 0)
    }

    @Test(
        "property: random changes of the source keep the view equal to it",
        arguments: 0..<50
    )
    func randomChanges(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 7)
        var nextID = 0
        let source = Stored(
            (0..<Int.random(in: 0..<30, using: &generator)).map { _ -> Row in
                nextID += 1
                return Row(id: nextID, title: "r")
            })
        let dataSource = ListDataSource(items: source)
        let table = FakeTableView()
        table.connect(dataSource)
        for _ in 0..<10 {
            source.value = randomEdit(source.value, rate: 0.2, nextID: &nextID, using: &generator)
            #expect(table.rows.value == [source.value])
        }
        #expect(table.broken.value == nil)
    }
}
