import RippleBindings
import Testing

@Suite struct ListChangesTests {
    @Test("the example of the documentation")
    func example() {
        let changes = ListChanges(from: ["a", "b", "c"], to: ["c", "a", "d"], id: \.self)
        #expect(changes == ListChanges(deletions: [1], insertions: [2], moves: [.init(from: 2, to: 0)], updates: []))
    }

    @Test("no change, everything new, everything gone")
    func edges() {
        let rows = (0..<5).map { Row(id: $0, title: "\($0)") }
        #expect(ListChanges(from: rows, to: rows).isEmpty)
        #expect(ListChanges(from: [Row](), to: rows) == .replacingAll(oldCount: 0, newCount: 5))
        #expect(ListChanges(from: rows, to: []) == .replacingAll(oldCount: 5, newCount: 0))
    }

    @Test("an element whose content changed in place is an update; moved and changed is a delete and an insert")
    func updates() {
        let old = [Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c")]
        let inPlace = [Row(id: 1, title: "a"), Row(id: 2, title: "B"), Row(id: 3, title: "c")]
        #expect(ListChanges(from: old, to: inPlace) == ListChanges(updates: [1]))
        let movedAndChanged = [Row(id: 3, title: "C"), Row(id: 1, title: "a"), Row(id: 2, title: "b")]
        #expect(ListChanges(from: old, to: movedAndChanged) == ListChanges(deletions: [2], insertions: [0]))
    }

    @Test("the fewest moves: a rotation by one moves one element")
    func fewestMoves() {
        let old = Array(0..<100)
        let rotated = Array(1..<100) + [0]
        let changes = ListChanges(from: old, to: rotated, id: \.self)
        #expect(changes.moves == [.init(from: 0, to: 99)])
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty)
    }

    @Test("repeated ids are matched in order")
    func repeatedIDs() {
        let old = ["x", "y", "x"]
        let new = ["x", "x", "y"]
        let changes = ListChanges(from: old, to: new, id: \.self)
        #expect(applyAsTableView(changes, to: old, reading: new) == new)
        #expect(changes.moves.count == 1)
    }

    @Test(
        "property: applying the changes to the old list gives the new list, with the fewest moves",
        arguments: 0..<300
    )
    func appliesToOld(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var nextID = 0
        let count = Int.random(in: 0..<40, using: &generator)
        let old = (0..<count).map { _ in
            nextID += 1
            return Row(id: nextID, title: "r")
        }
        let rate = [0.01, 0.1, 0.3, 0.6][seed % 4]
        let new = randomEdit(old, rate: rate, nextID: &nextID, using: &generator)
        let changes = ListChanges(from: old, to: new)
        let applied = try #require(
            applyAsTableView(changes, to: old, reading: new), "changes broke a batch-update rule: \(changes)")
        #expect(applied == new, "seed \(seed): \(changes)")

        #expect(
            applySteps(changes.steps(oldCount: old.count), to: old, reading: new) == new, "seed \(seed): \(changes)")

        // Minimal: kept elements that are neither moved nor deleted form a longest increasing run.
        let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
        let kept = new.compactMap { row in oldIndex[row.id] }
        let movedOrReplaced = changes.moves.count + changes.deletions.count - (old.count - kept.count)
        // (An element that moved and changed is a deletion and an insertion instead of a move.)
        #expect(movedOrReplaced == kept.count - naiveLongestIncreasing(kept))
    }

    @Test("10 000 elements with 1 % inserted, deleted and moved: a correct diff")
    func large() throws {
        var generator = SeededGenerator(seed: 42)
        var nextID = 0
        let old = (0..<10_000).map { _ in
            nextID += 1
            return Row(id: nextID, title: "r")
        }
        let new = randomEdit(old, rate: 0.01, nextID: &nextID, using: &generator)
        let changes = ListChanges(from: old, to: new)
        #expect(try #require(applyAsTableView(changes, to: old, reading: new)) == new)
    }

    @Test("the description lists the moves as the documentation shows them")
    func description() {
        let changes = ListChanges(from: ["a", "b", "c"], to: ["c", "a", "d"], id: \.self)
        #expect(changes.description == "-[1] +[2] ↕[2→0] ~[]")
        let two = ListChanges(moves: [.init(from: 0, to: 2), .init(from: 3, to: 1)])
        #expect(two.description == "-[] +[] ↕[0→2, 3→1] ~[]")
    }

    @Test("steps for changes that do not fit the old count stop with a message naming the index")
    func stepsOutOfRange() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = ListChanges(deletions: [5]).steps(oldCount: 2)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("RippleBindings: ListChanges.steps(oldCount: 2): deletion 5 is out of range 0..<2"))
        let moved = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = ListChanges(moves: [.init(from: 0, to: 3)]).steps(oldCount: 2)
            })
        #expect(String(decoding: moved.standardErrorContent, as: UTF8.self).contains("move to 3 is out of range 0..<2"))
    }
}

/// Applies steps one after the other, as `NSTableView` does between `beginUpdates` and
/// `endUpdates`; reloads read the new list.
func applySteps<Element>(_ steps: [ListChanges.Step], to old: [Element], reading new: [Element]) -> [Element]? {
    var list = old
    for step in steps {
        switch step {
        case .delete(let i):
            guard list.indices.contains(i) else { return nil }
            list.remove(at: i)
        case .insert(let i):
            guard (0...list.count).contains(i), new.indices.contains(i) else { return nil }
            list.insert(new[i], at: i)
        case .move(let from, let to):
            guard list.indices.contains(from), list.indices.contains(to) else { return nil }
            list.insert(list.remove(at: from), at: to)
        case .reload(let i):
            guard list.indices.contains(i), new.indices.contains(i) else { return nil }
            list[i] = new[i]
        }
    }
    return list
}
