import Testing
import Foundation
@testable import RippleStore

@Suite struct EntityTableTests {
    @Test func insertLookUpUpdateDelete() throws {
        var table = EntityTable<ENTodo>()
        try table.insert(ENTodo(id: 1, title: "b"))
        try table.insert(contentsOf: [ENTodo(id: 2, title: "a"), ENTodo(id: 3, title: "c")])
        #expect(table.count == 3)
        #expect(table[2]?.title == "a")
        #expect(table[9] == nil)
        #expect(table.contains(3))
        #expect(table.entities(for: [3, 9, 1]).map(\.id) == [3, 1])
        try table.update(2) { $0.title = "z" }
        try table.update(ENTodo(id: 3, title: "y"))
        #expect(table.all.map(\.title) == ["b", "z", "y"])  // updates keep their place
        let deleted = table.delete(1)
        let deletedAgain = table.delete(1)
        #expect(deleted?.title == "b")
        #expect(deletedAgain == nil)
        #expect(table.ids == [2, 3])
        table.delete([2, 3, 4])
        #expect(table.isEmpty)
    }

    @Test func badInputIsATypedError() throws {
        var table = try EntityTable([ENTodo(id: 1, title: "a")])
        #expect(throws: EntityError.duplicateID(table: "EntityTable<ENTodo>", id: "1")) {
            try table.insert(ENTodo(id: 1, title: "again"))
        }
        #expect(throws: EntityError.missingEntity(table: "EntityTable<ENTodo>", id: "2")) {
            try table.update(ENTodo(id: 2, title: "x"))
        }
        #expect(
            Self.error { try table.update(2) { todo in todo.title = "x" } }
                == .missingEntity(table: "EntityTable<ENTodo>", id: "2"))
        #expect(
            Self.error { try table.update(1) { todo in todo.id = 5 } }
                == .idChanged(table: "EntityTable<ENTodo>", id: "1"))
        #expect(table.all == [ENTodo(id: 1, title: "a")])
        #expect(EntityError.duplicateID(table: "T", id: "1").description.contains("upsert"))
    }

    static func error(_ body: () throws -> Void) -> EntityError? {
        do {
            try body()
            return nil
        } catch {
            return error as? EntityError
        }
    }

    @Test func upsertInsertsOrReplaces() {
        var table = EntityTable<ENTodo>()
        let first = table.upsert(ENTodo(id: 1, title: "a"))
        let second = table.upsert(ENTodo(id: 1, title: "b"))
        #expect(first)
        #expect(!second)
        table.upsert(contentsOf: [ENTodo(id: 2, title: "c"), ENTodo(id: 1, title: "d")])
        #expect(table.all.map(\.title) == ["d", "c"])
        table.deleteAll()
        #expect(table.isEmpty)
        #expect(table.sorted(by: \.title).isEmpty)
    }

    @Test func changesRecordInsertsUpdatesAndDeletes() throws {
        var table = try EntityTable((1...5).map { ENTodo(id: $0, title: "\($0)") })
        let before = table
        try table.insert(ENTodo(id: 6, title: "6"))
        try table.update(2) { $0.title = "two" }
        try table.update(3) { $0.title = "3" }  // equal: records nothing
        table.delete(4)
        let changes = table.changes(since: before)
        #expect(changes == EntityChanges(inserted: [6], updated: [2], deleted: [4]))
        #expect(table.changes(since: table).isEmpty)
    }

    /// A review found a commit that only moved an entity (deleted, then inserted again with an
    /// equal value: the table's order changed, and the commit was published) reporting no
    /// change at all.
    @Test func changesRecordMoves() throws {
        var table = try EntityTable((1...3).map { ENTodo(id: $0, title: "\($0)") })
        let before = table
        let first = table.delete(1)
        table.upsert(try #require(first))
        let deleted = table.delete(2)
        var second = try #require(deleted)
        second.title = "two"
        table.upsert(second)
        #expect(table.ids == [3, 1, 2])
        #expect(table != before)
        let changes = table.changes(since: before)
        #expect(changes == EntityChanges(updated: [2], moved: [1, 2]))
        #expect(!changes.isEmpty)
    }

    @Test func anEqualUpdateLeavesTheTableIdentical() throws {
        var table = try EntityTable([ENTodo(id: 1, title: "a")])
        let before = table
        try table.update(1) { $0.title = "a" }
        table.upsert(ENTodo(id: 1, title: "a"))
        #expect(table.storage.isIdentical(to: before.storage))
        #expect(table == before)
    }

    @Test func equalityComparesEntitiesAndOrder() throws {
        let a = try EntityTable([ENTodo(id: 1, title: "a"), ENTodo(id: 2, title: "b")])
        let b = try EntityTable([ENTodo(id: 1, title: "a"), ENTodo(id: 2, title: "b")])
        var c = a
        try c.update(2) { $0.title = "c" }
        #expect(a == b)
        #expect(a != c)
        var reordered = a
        let two = reordered.delete(1)!
        try reordered.insert(two)
        #expect(reordered.ids == [2, 1])
        #expect(reordered != a)
    }

    /// Deleting and re-inserting entities in one change: equal when the order came out the
    /// same, comparing only the moved ids, not every id of the two tables.
    @Test func comparingAfterAMoveLooksOnlyAtTheMovedEntities() throws {
        let comparisons = ENCounter()
        let ids = (0..<5_000).map { ENCountedID(value: $0, comparisons: comparisons) }
        let before = try EntityTable(ids.map { ENCounted(id: $0, payload: $0.value) })
        func compare(_ table: EntityTable<ENCounted>) -> (equal: Bool, comparisons: Int) {
            let start = comparisons.value
            let equal = table == before && before == table
            return (equal, comparisons.value - start)
        }
        // The last entity, deleted and inserted again: still last, so equal.
        var sameOrder = before
        try sameOrder.insert(sameOrder.delete(ids[4_999])!)
        let same = compare(sameOrder)
        #expect(same.equal)
        #expect(same.comparisons < 200)
        // The first one moved to the end: not equal.
        var moved = before
        try moved.insert(moved.delete(ids[0])!)
        let different = compare(moved)
        #expect(!different.equal)
        #expect(different.comparisons < 200)
        // Every entity moved, in the same order: equal, however it is compared.
        var rebuilt = before
        for id in ids { try rebuilt.insert(rebuilt.delete(id)!) }
        #expect(rebuilt == before)
        var rotated = before
        for id in ids.dropLast() { try rotated.insert(rotated.delete(id)!) }
        #expect(rotated != before)
        // Two moves that cancel out positions: the moved ids swapped places.
        var swapped = try EntityTable(ids.prefix(5).map { ENCounted(id: $0, payload: $0.value) })
        let five = swapped
        for index in [1, 2, 3, 4] { try swapped.insert(swapped.delete(ids[index])!) }
        #expect(swapped == five)
        try swapped.insert(swapped.delete(ids[2])!)
        #expect(swapped.ids.map(\.value) == [0, 1, 3, 4, 2])
        #expect(swapped != five)
    }

    @Test func orderedIndexesListByKeyIncrementally() throws {
        var table = EntityTable<ENTodo>()
        for (id, title) in [(1, "pear"), (2, "apple"), (3, "fig"), (4, "apple")] {
            try table.insert(ENTodo(id: id, title: title))
        }
        #expect(table.ids(sortedBy: \.title) == [2, 4, 3, 1])  // equal keys in insertion order
        try table.update(2) { $0.title = "zucchini" }
        #expect(table.sorted(by: \.title).map(\.id) == [4, 3, 1, 2])
        table.delete(3)
        #expect(table.ids(sortedBy: \.title) == [4, 1, 2])
    }

    @Test func groupingIndexesListByKey() throws {
        var table = EntityTable<ENTodo>()
        try table.insert(contentsOf: [
            ENTodo(id: 1, title: "a", listID: 10), ENTodo(id: 2, title: "b", listID: 20),
            ENTodo(id: 3, title: "c", listID: 10), ENTodo(id: 4, title: "d", listID: nil),
        ])
        #expect(table.entities(where: \.listID, equals: 10).map(\.id) == [1, 3])
        #expect(table.count(where: \.listID, equals: 20) == 1)
        #expect(table.ids(where: \.listID, equals: nil) == [4])
        try table.update(1) { $0.listID = 20 }
        #expect(table.ids(where: \.listID, equals: 10) == [3])
        #expect(table.ids(where: \.listID, equals: 20) == [1, 2])
        table.delete(2)
        #expect(table.ids(where: \.listID, equals: 20) == [1])
        #expect(table.ids(where: \.listID, equals: 99) == [])
    }

    @Test func anUndeclaredIndexStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            let table = EntityTable<ENTodoList>()
            _ = table.sorted(by: \.name)
        }
        await #expect(processExitsWith: .failure) {
            let table = EntityTable<ENTodoList>()
            _ = table.ids(where: \.name, equals: "x")
        }
    }

    @Test func collidingHashesAreKeptApart() throws {
        var table = EntityTable<ENColliding>()
        let keys = (0..<50).map { ENCollidingKey(value: $0, bucket: $0 % 3) }
        for key in keys { try table.insert(ENColliding(id: key, payload: key.value)) }
        let before = table
        #expect(table.count == 50)
        for key in keys { #expect(table[key]?.payload == key.value) }
        try table.update(keys[7]) { $0.payload = -1 }
        table.delete(keys[8])
        try table.insert(ENColliding(id: ENCollidingKey(value: 100, bucket: 1), payload: 100))
        #expect(
            table.changes(since: before)
                == EntityChanges(
                    inserted: [ENCollidingKey(value: 100, bucket: 1)], updated: [keys[7]], deleted: [keys[8]]))
        for key in keys where key.value != 8 { table.delete(key) }
        #expect(table.ids == [ENCollidingKey(value: 100, bucket: 1)])
    }

    @Test func codableRoundTripRebuildsIndexes() throws {
        var table = EntityTable<ENTodo>()
        try table.insert(contentsOf: [ENTodo(id: 2, title: "b", listID: 1), ENTodo(id: 1, title: "a", listID: 1)])
        let data = try JSONEncoder().encode(table)
        let decoded = try JSONDecoder().decode(EntityTable<ENTodo>.self, from: data)
        #expect(decoded.all == table.all)
        #expect(decoded.ids(sortedBy: \.title) == [1, 2])
        #expect(decoded.ids(where: \.listID, equals: 1) == [2, 1])
    }

    @Test func decodingDuplicateIdsIsAnError() throws {
        let json = Data(#"[{"id":1,"title":"a","rank":0},{"id":1,"title":"b","rank":0}]"#.utf8)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(EntityTable<ENTodo>.self, from: json)
        }
    }

    /// Random inserts, upserts, updates and deletes against a dictionary and an array.
    @Test(arguments: [1, 2, 3, 4])
    func randomOperationsMatchAPlainModel(seed: UInt64) throws {
        var random = ENRandom(state: seed)
        var table = EntityTable<ENTodo>()
        var model: [Int: ENTodo] = [:]
        var order: [Int] = []
        // The step at which each id was last inserted: one deleted and inserted again between
        // two checks is moved.
        var insertedAt: [Int: Int] = [:]
        var previousTable = table
        var previousModel = model
        var previousInsertedAt = insertedAt
        for step in 0..<3_000 {
            let id = Int.random(in: 0..<400, using: &random)
            let title = "t\(Int.random(in: 0..<50, using: &random))"
            let listID = Int.random(in: 0..<6, using: &random)
            let todo = ENTodo(
                id: id, title: title, listID: listID == 0 ? nil : listID, rank: Int.random(in: 0..<10, using: &random))
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                do {
                    try table.insert(todo)
                    #expect(model[id] == nil)
                    model[id] = todo
                    order.append(id)
                    insertedAt[id] = step
                } catch {
                    #expect(model[id] != nil)
                }
            case 1:
                let inserted = table.upsert(todo)
                #expect(inserted == (model[id] == nil))
                if model[id] == nil {
                    order.append(id)
                    insertedAt[id] = step
                }
                model[id] = todo
            case 2:
                do {
                    try table.update(id) {
                        $0.title = title; $0.listID = todo.listID
                    }
                    model[id]?.title = title
                    model[id]?.listID = todo.listID
                } catch {
                    #expect(model[id] == nil)
                }
            default:
                let deleted = table.delete(id)
                #expect(deleted == model.removeValue(forKey: id))
                order.removeAll { $0 == id }
            }
            if step % 100 == 99 {
                #expect(table.count == model.count)
                #expect(table.ids == order)
                #expect(table.all == order.map { model[$0]! })
                let byTitle = order.enumerated().sorted {
                    (model[$0.element]!.title, $0.offset) < (model[$1.element]!.title, $1.offset)
                }.map(\.element)
                #expect(table.ids(sortedBy: \.title) == byTitle)
                for list in [nil, 1, 2, 3, 4, 5] as [Int?] {
                    #expect(table.ids(where: \.listID, equals: list) == order.filter { model[$0]!.listID == list })
                }
                // What changed since the last check, against the models.
                var expected = EntityChanges<Int>()
                for id in model.keys where previousModel[id] == nil { expected.inserted.insert(id) }
                for (id, todo) in model where previousModel[id] != nil && previousModel[id] != todo {
                    expected.updated.insert(id)
                }
                for id in previousModel.keys where model[id] == nil { expected.deleted.insert(id) }
                for id in model.keys where previousModel[id] != nil && previousInsertedAt[id] != insertedAt[id] {
                    expected.moved.insert(id)
                }
                #expect(table.changes(since: previousTable) == expected)
                // Equal to a table built from scratch in the same order.
                #expect(table == (try EntityTable(order.map { model[$0]! })))
                previousTable = table
                previousModel = model
                previousInsertedAt = insertedAt
            }
        }
    }
}
