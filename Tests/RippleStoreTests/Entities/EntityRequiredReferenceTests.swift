import Testing
import Foundation
@testable import RippleStore

struct ENProject: Identifiable, Equatable, Sendable { var id: Int }
struct ENTask: Identifiable, Equatable, Sendable, IndexedEntity {
    var id: Int
    var projectID: Int
    static var indexes: [EntityIndex<ENTask>] { [.grouped(by: \.projectID)] }
}

struct ENWorkDatabase: EntityDatabase {
    var projects = EntityTable<ENProject>()
    var tasks = EntityTable<ENTask>()
    static var relationships: [EntityRelationship<ENWorkDatabase>] {
        [.reference(from: \.tasks, by: \.projectID, to: \.projects, onDelete: .cascade)]
    }
}

@Suite struct EntityRequiredReferenceTests {
    @Test func aRequiredReferenceIsCheckedAndCascades() throws {
        var database = ENWorkDatabase()
        try database.insert(ENProject(id: 1), into: \.projects)
        try database.insert(ENTask(id: 1, projectID: 1), into: \.tasks)
        #expect(throws: EntityError.self) {
            try database.insert(ENTask(id: 2, projectID: 7), into: \.tasks)
        }
        database.delete(1, from: \.projects)
        #expect(database.tasks.isEmpty)
    }

    @Test func aRequiredReferenceCannotBeNullified() async {
        await #expect(processExitsWith: .failure) {
            _ = EntityRelationship<ENWorkDatabase>.reference(
                from: \.tasks, by: \.projectID, to: \.projects, onDelete: .nullify)
        }
    }
}
