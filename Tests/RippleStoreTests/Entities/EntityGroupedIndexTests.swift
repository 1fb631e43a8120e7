import Testing
@testable import RippleStore

/// An entity grouped by a floating-point key, which can be NaN.
struct ENMeasured: Identifiable, Equatable, Sendable, IndexedEntity {
    var id: Int
    var weight: Double

    static var indexes: [EntityIndex<ENMeasured>] { [.grouped(by: \.weight)] }
}

/// A grouping index over keys that are not equal to themselves (NaN) keeps one group for them,
/// updated and deleted like any other. Before, each such entity got a group no update or
/// delete could find again, and a debug build stopped on the index's count.
@Suite struct EntityGroupedIndexTests {
    @Test func entitiesWhoseKeyIsNaNFormOneGroup() throws {
        var table = EntityTable<ENMeasured>()
        try table.insert(contentsOf: [
            ENMeasured(id: 1, weight: .nan), ENMeasured(id: 2, weight: 2), ENMeasured(id: 3, weight: .nan),
        ])
        #expect(table.ids(where: \.weight, equals: .nan) == [1, 3])
        #expect(table.count(where: \.weight, equals: .nan) == 2)
        #expect(table.ids(where: \.weight, equals: 2) == [2])
    }

    @Test func anEntityWhoseKeyIsNaNIsDeletedFromTheIndex() throws {
        var table = EntityTable<ENMeasured>()
        try table.insert(ENMeasured(id: 1, weight: .nan))
        table.delete(1)
        #expect(table.ids(where: \.weight, equals: .nan) == [])
        try table.insert(ENMeasured(id: 1, weight: .nan))
        #expect(table.ids(where: \.weight, equals: .nan) == [1])
    }

    @Test func updatingAKeyToAndFromNaNMovesTheEntity() throws {
        var table = EntityTable<ENMeasured>()
        try table.insert(ENMeasured(id: 1, weight: .nan))
        try table.update(1) { $0.weight = 2 }
        #expect(table.ids(where: \.weight, equals: 2) == [1])
        #expect(table.ids(where: \.weight, equals: .nan) == [])
        try table.update(1) { $0.weight = .nan }
        try table.update(1) { $0.weight = -.nan }
        #expect(table.ids(where: \.weight, equals: .nan) == [1])
        #expect(table.count(where: \.weight, equals: 2) == 0)
    }
}
