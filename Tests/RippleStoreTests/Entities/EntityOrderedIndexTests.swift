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
            let score =
                Int.random(in: 0..<4, using: &random) == 0 ? Double.nan : Double(Int.random(in: 0..<20, using: &random))
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

/// How a change to a copy of a sorted list shares the rest with the original.
@Suite struct EntitySortedStorageSharingTests {
    /// The references and elements held by storage of `new` that `old` does not share: what
    /// making `new` from `old` copied.
    static func copied(_ new: _SortedChunks<Int>, from old: _SortedChunks<Int>) -> Int {
        var shared = Set<ObjectIdentifier>()
        func collect(_ node: _ChunkNode<Int>) {
            shared.insert(ObjectIdentifier(node))
            node.children.forEach(collect)
        }
        old.root.map(collect)
        func count(_ node: _ChunkNode<Int>) -> Int {
            guard !shared.contains(ObjectIdentifier(node)) else { return 0 }
            return node.items.count + node.children.count + node.lasts.count
                + node.children.reduce(0) { $0 + count($1) }
        }
        return new.root.map(count) ?? 0
    }

    /// The first position of `sorted` whose element is not less than `value`.
    static func insertionIndex(of value: Int, in sorted: [Int]) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The number of levels of `list`'s tree.
    static func depth(_ list: _SortedChunks<Int>) -> Int {
        var depth = 0
        var node = list.root
        while let current = node {
            depth += 1
            node = current.children.first
        }
        return depth
    }

    @Test func aChangeCopiesOneLeafAndTheSpine() {
        var list = _SortedChunks<Int>()
        for value in 0..<200_000 { list.insert(value * 2) }
        let before = list
        for (change, value) in [(0, 100_001), (1, 0), (1, 300_000), (0, -1), (0, 399_999)] {
            var changed = before
            if change == 0 {
                changed.insert(value)
            } else {
                let removed = changed.remove(value)
                #expect(removed)
            }
            #expect(Self.copied(changed, from: before) <= 400, "change \(change) of \(value)")
            #expect(changed.count == before.count + (change == 0 ? 1 : -1))
        }
        #expect(before.count == 200_000)
        #expect(before.elements == (0..<200_000).map { $0 * 2 })
        #expect(before.rank(of: 1_001) == 501)
        #expect(Self.depth(before) <= 5)
    }

    /// Random inserts and removes on copies, against a sorted array: every version keeps its
    /// elements, and the tree stays shallow however elements come and go.
    @Test(arguments: [1, 2])
    func randomChangesKeepEveryVersion(seed: UInt64) {
        var random = ENRandom(state: seed)
        var list = _SortedChunks<Int>()
        var model: [Int] = []
        var versions: [(_SortedChunks<Int>, [Int])] = []
        for step in 0..<30_000 {
            // Phases: mostly inserts, then mostly removes, then mixed.
            let removes = step < 10_000 ? 1 : step < 20_000 ? 7 : 4
            let value = Int.random(in: 0..<20_000, using: &random)
            let index = Self.insertionIndex(of: value, in: model)
            let present = index < model.count && model[index] == value
            if Int.random(in: 0..<8, using: &random) < removes {
                let removed = list.remove(value)
                #expect(removed == present)
                if present { model.remove(at: index) }
            } else if !present {
                list.insert(value)
                model.insert(value, at: index)
            }
            if step % 1_000 == 999 {
                versions.append((list, model))
                #expect(list.count == model.count)
                #expect(Self.depth(list) <= 4)
                if let probe = model.randomElement(using: &random) {
                    #expect(list.rank(of: probe) == Self.insertionIndex(of: probe, in: model))
                    #expect(list.contains(probe))
                }
            }
        }
        for (version, elements) in versions { #expect(version.elements == elements) }
    }
}
