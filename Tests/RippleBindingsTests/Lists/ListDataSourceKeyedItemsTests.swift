import Ripple
import RippleBindings
import RippleModels
import Testing

/// Lists of items that are not `Identifiable`: keyed by a key path, or by position.
@Suite struct ListDataSourceKeyedItemsTests {
    struct City: Equatable, Sendable {
        var name: String
        var population: Int
    }

    private func cities(_ names: [String], population: Int = 1) -> [City] {
        names.map { City(name: $0, population: population) }
    }

    @Test("items keyed by a key path: moves, insertions and content changes reach the view by key")
    func keyedByKeyPath() {
        let source = Stored(cities(["Oslo", "Rome", "Lima"]))
        let dataSource = ListDataSource(items: source, id: \.name)
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        #expect(dataSource.item(at: ListIndex(item: 1)).name == "Rome")
        #expect(dataSource.item(at: ListIndex(item: 1)).id == "Rome")

        source.value = [
            City(name: "Lima", population: 1), City(name: "Oslo", population: 2), City(name: "Rome", population: 1),
            City(name: "Kyiv", population: 1),
        ]
        let update = updates.value.last
        #expect(update?.itemMoves.count == 1)
        #expect(update?.itemInsertions == [ListIndex(item: 3)])
        #expect(update?.itemUpdates == [ListIndex(item: 0)])  // Oslo's population, at its old place
        #expect(update?.itemDeletions == [])
        #expect(
            (0..<dataSource.numberOfItems(inSection: 0)).map { dataSource.item(at: ListIndex(item: $0)).name } == [
                "Lima", "Oslo", "Rome", "Kyiv",
            ])
    }

    @Test("items keyed by a key path keep their selection by key, and the user's edits are written back")
    func keyedSelectionAndEdits() {
        let source = Stored(cities(["Oslo", "Rome", "Lima"]))
        let selected = Stored<Set<String>>([])
        let dataSource = ListDataSource(items: source, id: \.name)
        dataSource.bindSelection(selected)
        dataSource.allowsDeletion = true
        dataSource.allowsMoving = true
        let shown = Locked<[ListIndex]>([])
        dataSource.connect(update: { _ in }, selection: { shown.value = $0 })
        dataSource.userDidSelect(at: ListIndex(item: 2))
        #expect(selected.value == ["Lima"])
        source.value = cities(["Lima", "Oslo", "Rome"])
        #expect(shown.value == [ListIndex(item: 0)])
        dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(item: 2))
        #expect(source.value.map(\.name) == ["Oslo", "Rome", "Lima"])
        dataSource.userDidDelete(at: ListIndex(item: 2))
        #expect(source.value.map(\.name) == ["Oslo", "Rome"])
        #expect(selected.value.isEmpty)
    }

    @Test("values that are their own key (id: \\.self), as in Fisticuffs' list of day names")
    func keyedBySelf() {
        let days = Stored(["Sunday", "Monday", "Tuesday"])
        let dataSource = ListDataSource(items: days, id: \.self)
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        days.value = ["Monday", "Tuesday", "Sunday"]
        #expect(updates.value.last?.itemMoves.count == 1)
        #expect(updates.value.last?.itemInsertions == [])
        #expect(dataSource.item(at: ListIndex(item: 2)).value == "Sunday")
    }

    @Test("items keyed by position: the item at the same index is the same row")
    func keyedByPosition() {
        let lines = Stored(["a", "b", "c"])
        let dataSource = ListDataSource(items: lines, id: .position)
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        lines.value = ["a", "x", "c", "d"]
        #expect(updates.value.last?.itemUpdates == [ListIndex(item: 1)])
        #expect(updates.value.last?.itemInsertions == [ListIndex(item: 3)])
        #expect(updates.value.last?.itemMoves == [])
        #expect(updates.value.last?.itemDeletions == [])
        lines.value = ["x", "a"]
        #expect(updates.value.last?.itemUpdates == [ListIndex(item: 0), ListIndex(item: 1)])
        #expect(updates.value.last?.itemDeletions == [ListIndex(item: 2), ListIndex(item: 3)])
        #expect(updates.value.last?.itemMoves == [])
        #expect(dataSource.item(at: ListIndex(item: 0)).value == "x")
        #expect(dataSource.item(at: ListIndex(item: 0)).id == 0)
    }
}
