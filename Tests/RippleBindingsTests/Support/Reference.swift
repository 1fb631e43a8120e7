import RippleBindings

/// A deterministic random generator (SplitMix64), so that a failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct Row: Identifiable, Equatable, Hashable, Sendable, CustomStringConvertible {
    var id: Int
    var title: String
    var description: String { "\(id):\(title)" }
}

/// Applies `changes` to `old` the way a table view applies a batch update, and returns the
/// list it then shows: deleted rows go, moved rows land at their new index, the others keep
/// their relative order around them, inserted rows come from `new` (the data source), and an
/// updated row is reloaded from `new`. Checks UIKit's rules on the way: no index used twice,
/// none out of range.
func applyAsTableView<Element>(_ changes: ListChanges, to old: [Element], reading new: [Element]) -> [Element]? {
    let deleted = Set(changes.deletions)
    let movedFrom = Set(changes.moves.map(\.from))
    let updated = Set(changes.updates)
    guard deleted.count == changes.deletions.count, movedFrom.count == changes.moves.count,
        updated.count == changes.updates.count,
        deleted.isDisjoint(with: movedFrom), deleted.isDisjoint(with: updated), movedFrom.isDisjoint(with: updated),
        (deleted.union(movedFrom).union(updated)).allSatisfy({ old.indices.contains($0) })
    else { return nil }
    let inserted = Set(changes.insertions)
    let movedTo = Set(changes.moves.map(\.to))
    guard inserted.count == changes.insertions.count, movedTo.count == changes.moves.count,
        inserted.isDisjoint(with: movedTo)
    else { return nil }

    let staying = old.indices.filter { !deleted.contains($0) && !movedFrom.contains($0) }
    let newCount = staying.count + changes.moves.count + changes.insertions.count
    guard newCount == new.count, inserted.union(movedTo).allSatisfy({ (0..<newCount).contains($0) }) else { return nil }

    var result = [Element?](repeating: nil, count: newCount)
    for j in inserted { result[j] = new[j] }
    for move in changes.moves { result[move.to] = old[move.from] }
    var next = staying.makeIterator()
    for j in 0..<newCount where result[j] == nil {
        guard let i = next.next() else { return nil }
        result[j] = updated.contains(i) ? new[j] : old[i]
    }
    return result.map { $0! }
}

/// The length of a longest strictly increasing subsequence, the slow and obvious way.
func naiveLongestIncreasing(_ values: [Int]) -> Int {
    guard !values.isEmpty else { return 0 }
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max()!
}

/// A random edit of `rows`: inserts, deletes, moves and updates, each with probability `rate`.
func randomEdit(_ rows: [Row], rate: Double, nextID: inout Int, using generator: inout SeededGenerator) -> [Row] {
    var result = rows.filter { _ in Double.random(in: 0..<1, using: &generator) >= rate }
    for index in result.indices where Double.random(in: 0..<1, using: &generator) < rate {
        result[index].title += "'"
    }
    let moves = Int(Double(result.count) * rate) + (result.count > 1 && Bool.random(using: &generator) ? 1 : 0)
    for _ in 0..<moves where result.count > 1 {
        let row = result.remove(at: Int.random(in: 0..<result.count, using: &generator))
        result.insert(row, at: Int.random(in: 0...result.count, using: &generator))
    }
    let inserts = Int(Double(rows.count) * rate) + (Bool.random(using: &generator) ? 1 : 0)
    for _ in 0..<inserts {
        nextID += 1
        result.insert(Row(id: nextID, title: "new"), at: Int.random(in: 0...result.count, using: &generator))
    }
    return result
}
