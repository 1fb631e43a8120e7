import Testing
import Foundation
@testable import RippleStore

/// An entity ordered by a floating-point key, which can be NaN.
struct ENScored: Identifiable, Equatable, Sendable, IndexedEntity {
    var id: Int
    var score: Double

    static var indexes: [EntityIndex<ENScored>] { [.ordered(by: \.score)] }
}

/// A key whose `<` says nothing is less than anything: no order at all.
struct ENUnordered: Comparable, Sendable {
    var value: Int
    static func < (lhs: ENUnordered, rhs: ENUnordered) -> Bool { false }
    static func == (lhs: ENUnordered, rhs: ENUnordered) -> Bool { false }
}

@Suite struct EntityOrderedIndexTests {
    @Test func aNaNKeyIsOrderedAfterEveryNumber() throws {
        var table = try EntityTable([ENScored(id: 1, score: 1), ENScored(id: 2, score: 2), ENScored(id: 3, score: 3)])
        try table.update(2) { $0.score = .nan }
        #expect(table.ids(sortedBy: \.score) == [1, 3, 2])
        try table.update(2) { $0.score = 2 }
        #expect(table.ids(sortedBy: \.score) == [1, 2, 3])
        try table.update(1) { $0.score = .nan }
        try table.update(3) { $0.score = .nan }
        try table.insert(ENScored(id: 4, score: -.infinity))
        // NaNs after every number, among themselves in insertion order.
        #expect(table.ids(sortedBy: \.score) == [4, 2, 1, 3])
        table.delete(1)
        #expect(table.ids(sortedBy: \.score) == [4, 2, 3])
    }

    @Test func upsertingAnEntityWithANaNKeyKeepsOneEntry() {
        var table = EntityTable<ENScored>()
        // An entity holding NaN is never equal to itself: each upsert replaces it.
        for _ in 0..<100 { table.upsert(ENScored(id: 1, score: .nan)) }
        #expect(table.count == 1)
        #expect(table.ids(sortedBy: \.score) == [1])
        table.delete(1)
        #expect(table.ids(sortedBy: \.score) == [])
    }

    /// Random changes with NaN keys among numbers, against a model sorted with NaN last.
    @Test(arguments: [1, 2, 3])
    func randomNaNKeysMatchAPlainModel(seed: UInt64) throws {
        var random = ENRandom(state: seed)
        var table = EntityTable<ENScored>()
        var model: [Int: Double] = [:]
        var order: [Int] = []
        for step in 0..<4_000 {
            let id = Int.random(in: 0..<300, using: &random)
            let score = Int.random(in: 0..<4, using: &random) == 0 ? Double.nan : Double(Int.random(in: 0..<20, using: &random))
            if Int.random(in: 0..<4, using: &random) == 0 {
                table.delete(id)
                model[id] = nil
                order.removeAll { $0 == id }
            } else {
                if model[id] == nil { order.append(id) }
                table.upsert(ENScored(id: id, score: score))
                model[id] = score
            }
            if step % 200 == 199 {
                let expected = order.enumerated().sorted { lhs, rhs in
                    let (a, b) = (model[lhs.element]!, model[rhs.element]!)
                    if a.isNaN || b.isNaN {
                        return a.isNaN == b.isNaN ? lhs.offset < rhs.offset : b.isNaN
                    }
                    return (a, lhs.offset) < (b, rhs.offset)
                }.map(\.element)
                #expect(table.ids(sortedBy: \.score) == expected)
            }
        }
    }

    #if RIPPLE_INVARIANTS
    @Test func theInvariantRunsCatchAnUnsortedIndex() async {
        await #expect(processExitsWith: .failure) {
            var entries = _SortedChunks<ENUnordered>()
            for value in 0..<3 { entries.insert(ENUnordered(value: value)) }
        }
    }
    #endif
}
