import Testing
import Foundation
@testable import RippleStore

@Suite struct EntityDatabaseTests {
    private func filled() throws -> ENDatabase {
        var database = ENDatabase()
        try database.insert(ENTodoList(id: 1, name: "Groceries"), into: \.lists)
        try database.insert(ENTodoList(id: 2, name: "Work"), into: \.lists)
        try database.insert(ENTodo(id: 10, title: "Milk", listID: 1), into: \.todos)
        try database.insert(ENTodo(id: 11, title: "Bread", listID: 1), into: \.todos)
        try database.insert(ENTodo(id: 20, title: "Report", listID: 2), into: \.todos)
        try database.insert(ENTag(id: "dairy", todoID: 10), into: \.tags)
        try database.insert(ENNote(id: 1, todoID: 11), into: \.notes)
        return database
    }

    @Test func aReferenceToAMissingEntityIsATypedError() throws {
        var database = try filled()
        let before = database
        #expect(
            throws: EntityError.missingReference(
                table: "EntityTable<ENTodo>", id: "30", foreignKey: "\\ENTodo.listID",
                target: "EntityTable<ENTodoList>", targetID: "9")
        ) {
            try database.insert(ENTodo(id: 30, title: "Orphan", listID: 9), into: \.todos)
        }
        #expect(throws: EntityError.self) {
            try database.update(10, in: \.todos) { $0.listID = 9 }
        }
        #expect(throws: EntityError.self) {
            try database.upsert(ENTodo(id: 10, title: "Milk", listID: 9), into: \.todos)
        }
        #expect(database == before)
        // No reference at all is fine.
        try database.insert(ENTodo(id: 31, title: "Loose", listID: nil), into: \.todos)
    }

    @Test func aFailedCommitLeavesTheStoreUnchanged() throws {
        let store = Store<ENState, Never>(initialState: ENState(database: try filled()))
        let before = store.currentState
        #expect(throws: EntityError.self) {
            try store.commit { state in
                state.database.delete(2, from: \.lists)
                try state.database.insert(ENTodo(id: 30, title: "Orphan", listID: 9), into: \.todos)
            }
        }
        #expect(store.currentState == before)
    }

    @Test func cascadeNullifyAndLeaveApplyInTheSameChange() throws {
        var database = try filled()
        let deleted = database.delete(1, from: \.lists)
        #expect(deleted?.name == "Groceries")
        // Cascade: the list's todos are gone.
        #expect(database.todos.ids == [20])
        // Through them, nullify: the tag stays, without its todo.
        #expect(database.tags["dairy"]?.todoID == nil)
        // And leave: the note keeps the id of a todo that no longer exists.
        #expect(database.notes[1]?.todoID == 11)
        #expect(database.lists.ids == [2])
        #expect(database.delete(1, from: \.lists) == nil)
    }

    @Test func aStoreCommitPublishesTheWholeCascadeOnce() throws {
        let store = Store<ENState, Never>(initialState: ENState(database: try filled()))
        let recorded = ENBox<[EntityChanges<Int>]>([])
        let subscription = store.sinkState(dropsFirst: true) { changes in
            recorded.update { $0.append(changes.entityChanges(\.database.todos)) }
        }
        withExtendedLifetime(subscription) {
            _ = store.commit { $0.database.delete(1, from: \.lists) }
        }
        #expect(recorded.value == [EntityChanges(deleted: [10, 11])])
    }

    @Test func aDeleteRuleWithoutAGroupingIndexStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            struct Owner: Identifiable, Equatable, Sendable { var id: Int }
            struct Pet: Identifiable, Equatable, Sendable { var id: Int; var ownerID: Int? }
            struct Database: EntityDatabase {
                var owners = EntityTable<Owner>()
                var pets = EntityTable<Pet>()
                static var relationships: [EntityRelationship<Database>] {
                    [.reference(from: \.pets, by: \.ownerID, to: \.owners, onDelete: .cascade)]
                }
            }
            var database = Database()
            try? database.insert(Owner(id: 1), into: \.owners)
            database.delete(1, from: \.owners)
        }
    }

    @Test func aDatabaseIsCodable() throws {
        let database = try filled()
        let data = try JSONEncoder().encode(database)
        let decoded = try JSONDecoder().decode(ENDatabase.self, from: data)
        #expect(decoded == database)
        #expect(decoded.todos.ids(where: \.listID, equals: 1) == [10, 11])
    }

    @Test func aCascadeThrough100000LevelsRunsWithoutRecursion() throws {
        let depth = 100_000
        var database = ENTreeDatabase()
        // Node 0 is the root; node n's parent is n - 1. A side branch and a tag on the way.
        database.nodes.upsert(contentsOf: (0..<depth).map { ENTreeNode(id: $0, parentID: $0 == 0 ? nil : $0 - 1) })
        try database.insert(ENTreeNode(id: -1, parentID: nil), into: \.nodes)
        try database.insert(ENTreeNode(id: -2, parentID: 50_000), into: \.nodes)
        try database.insert(ENTag(id: "deep", todoID: 99_999), into: \.tags)
        try database.insert(ENTag(id: "kept", todoID: -1), into: \.tags)
        let deleted = database.delete(0, from: \.nodes)
        #expect(deleted == ENTreeNode(id: 0, parentID: nil))
        #expect(database.nodes.ids == [-1])
        #expect(database.tags["deep"]?.todoID == nil)
        #expect(database.tags["kept"]?.todoID == -1)
    }

    /// A branching tree: every descendant deleted, every tag on the way nullified in place.
    @Test func aCascadeThroughABranchingTreeAppliesEveryRule() throws {
        var database = ENTreeDatabase()
        database.nodes.upsert(contentsOf: [
            ENTreeNode(id: 1, parentID: nil), ENTreeNode(id: 2, parentID: 1), ENTreeNode(id: 3, parentID: 1),
            ENTreeNode(id: 4, parentID: 2), ENTreeNode(id: 5, parentID: 3),
        ])
        for id in 1...5 { try database.insert(ENTag(id: "t\(id)", todoID: id), into: \.tags) }
        let before = database
        database.delete(1, from: \.nodes)
        #expect(database.nodes.isEmpty)
        #expect(database.tags.all.map(\.todoID) == [nil, nil, nil, nil, nil])
        // Nullified in place: the tags keep their order.
        #expect(database.tags.ids == ["t1", "t2", "t3", "t4", "t5"])
        #expect(database.nodes.changes(since: before.nodes) == EntityChanges(deleted: [1, 2, 3, 4, 5]))
    }
}
