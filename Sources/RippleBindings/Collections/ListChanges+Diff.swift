extension ListChanges {
    /// The changes from `old` to `new`, matching elements by `id`, with an element whose `id`
    /// is in both lists but whose content `isUpdated` says changed reported as updated.
    ///
    /// The result is minimal: every element present in both lists is kept, and the fewest
    /// elements are moved (those outside a longest run of kept elements in increasing order).
    /// Elements of a common prefix and a common suffix (same ids at the same distance from
    /// the start, or from the end) are matched position by position; between them, repeated
    /// ids are matched in order: the first occurrence in `old` with the first in `new`, and so
    /// on.
    ///
    /// ```swift
    /// struct Row: Identifiable, Equatable { let id: Int; var title: String }
    /// let changes = ListChanges(from: oldRows, to: newRows, id: \.id, isUpdated: !=)
    /// ```
    ///
    /// - Parameters:
    ///   - old: The list before.
    ///   - new: The list after.
    ///   - id: The identity of an element.
    ///   - isUpdated: Whether an element of `old` and the element of `new` with its identity
    ///     differ in content; `nil` to report no updates.
    /// - Complexity: O(*n* + *m* + *k* log *k*) for lists of *n* and *m* elements of which *k*
    ///   are in both: one hash-table pass over each list and a longest-increasing-run search
    ///   over the kept elements (no O(*n*·*m*) comparison). For 10 000 elements with 1 %
    ///   inserted, deleted and moved, see the Benchmarks README.
    @inlinable
    public init<Element, ID: Hashable>(
        from old: [Element],
        to new: [Element],
        id: (Element) -> ID,
        isUpdated: ((Element, Element) -> Bool)? = nil
    ) {
        self = _diff(oldCount: old.count, newCount: new.count, oldID: { id(old[$0]) }, newID: { id(new[$0]) }) { i, j in
            isUpdated?(old[i], new[j]) ?? false
        }
    }

    /// The changes from `old` to `new`, matching elements by their `id` and reporting an
    /// element whose content differs as updated.
    ///
    /// - Complexity: O(*n* + *m* + *k* log *k*); see ``init(from:to:id:isUpdated:)``.
    @inlinable
    public init<Element: Identifiable & Equatable>(from old: [Element], to new: [Element]) {
        self.init(from: old, to: new, id: { $0.id }, isUpdated: { $0 != $1 })
    }

    /// The changes from `old` to `new`, matching elements by their `id` (no updates: the
    /// elements are not `Equatable`).
    ///
    /// - Complexity: O(*n* + *m* + *k* log *k*); see ``init(from:to:id:isUpdated:)``.
    @inlinable
    public init<Element: Identifiable>(from old: [Element], to new: [Element]) {
        self.init(from: old, to: new, id: { $0.id }, isUpdated: nil)
    }
}

/// The keyed diff behind every `ListChanges` initializer, over indices.
@inlinable
func _diff<ID: Hashable>(
    oldCount: Int,
    newCount: Int,
    oldID: (Int) -> ID,
    newID: (Int) -> ID,
    isUpdated: (Int, Int) -> Bool
) -> ListChanges {
    // The common prefix and suffix (the whole list but one item, for a single change) are
    // compared by id, without hashing.
    var prefix = 0
    var updates: [Int] = []
    while prefix < oldCount, prefix < newCount, oldID(prefix) == newID(prefix) {
        if isUpdated(prefix, prefix) { updates.append(prefix) }
        prefix += 1
    }
    var suffix = 0
    var suffixUpdates: [Int] = []
    while suffix < oldCount - prefix, suffix < newCount - prefix,
        oldID(oldCount - 1 - suffix) == newID(newCount - 1 - suffix)
    {
        if isUpdated(oldCount - 1 - suffix, newCount - 1 - suffix) { suffixUpdates.append(oldCount - 1 - suffix) }
        suffix += 1
    }
    var changes = _diffMiddle(
        oldCount: oldCount - prefix - suffix,
        newCount: newCount - prefix - suffix,
        oldID: { oldID(prefix + $0) },
        newID: { newID(prefix + $0) },
        isUpdated: { isUpdated(prefix + $0, prefix + $1) }
    )
    if prefix > 0 {
        changes.deletions = changes.deletions.map { $0 + prefix }
        changes.insertions = changes.insertions.map { $0 + prefix }
        changes.updates = changes.updates.map { $0 + prefix }
        changes.moves = changes.moves.map { ListChanges.Move(from: $0.from + prefix, to: $0.to + prefix) }
    }
    if !updates.isEmpty || !suffixUpdates.isEmpty {
        changes.updates = updates + changes.updates + suffixUpdates.reversed()
    }
    return changes
}

/// The keyed diff of two lists with no common prefix or suffix to skip.
@inlinable
func _diffMiddle<ID: Hashable>(
    oldCount: Int,
    newCount: Int,
    oldID: (Int) -> ID,
    newID: (Int) -> ID,
    isUpdated: (Int, Int) -> Bool
) -> ListChanges {
    if oldCount == 0 || newCount == 0 { return .replacingAll(oldCount: oldCount, newCount: newCount) }
    // Where each id first occurs in `old`, and the next old index with the same id: repeated
    // ids are matched in order.
    var firstOld = [ID: Int](minimumCapacity: oldCount)
    var nextSame = [Int](repeating: -1, count: oldCount)
    for i in stride(from: oldCount - 1, through: 0, by: -1) {
        let key = oldID(i)
        if let later = firstOld.updateValue(i, forKey: key) { nextSame[i] = later }
    }
    var newToOld = [Int](repeating: -1, count: newCount)
    var oldIsKept = [Bool](repeating: false, count: oldCount)
    var kept = 0
    for j in 0..<newCount {
        let key = newID(j)
        guard let i = firstOld[key] else { continue }
        if nextSame[i] >= 0 { firstOld[key] = nextSame[i] } else { firstOld[key] = nil }
        newToOld[j] = i
        oldIsKept[i] = true
        kept += 1
    }

    // The kept elements, in new order, by old index: those on a longest increasing run stay,
    // the others move.
    let stays = _longestIncreasingRun(newToOld, count: kept)

    var changes = ListChanges()
    var insertedOrReplaced = [Bool](repeating: false, count: newCount)
    var oldIsDeleted = [Bool](repeating: false, count: oldCount)
    for i in 0..<oldCount where !oldIsKept[i] { oldIsDeleted[i] = true }
    var moves: [ListChanges.Move] = []
    var updated = [Bool](repeating: false, count: oldCount)
    for j in 0..<newCount {
        let i = newToOld[j]
        if i < 0 {
            insertedOrReplaced[j] = true
            continue
        }
        let changed = isUpdated(i, j)
        if stays[j] {
            if changed { updated[i] = true }
        } else if changed {
            // Moved and changed: a table view cannot reload and move one row in one batch.
            oldIsDeleted[i] = true
            insertedOrReplaced[j] = true
        } else {
            moves.append(ListChanges.Move(from: i, to: j))
        }
    }
    changes.deletions = (0..<oldCount).filter { oldIsDeleted[$0] }
    changes.insertions = (0..<newCount).filter { insertedOrReplaced[$0] }
    changes.updates = (0..<oldCount).filter { updated[$0] }
    moves.sort { $0.from < $1.from }
    changes.moves = moves
    return changes
}

/// For each position of `sequence` (old indices in new order, `-1` for none), whether it is
/// on one longest strictly increasing run of the non-negative values (patience sorting).
///
/// - Complexity: O(*n* + *k* log *k*) for *k* non-negative values.
@inlinable
func _longestIncreasingRun(_ sequence: [Int], count: Int) -> [Bool] {
    var onRun = [Bool](repeating: false, count: sequence.count)
    guard count > 0 else { return onRun }
    // tails[l]: the position whose value ends the best run of length l + 1 found so far.
    var tails: [Int] = []
    tails.reserveCapacity(count)
    var previous = [Int](repeating: -1, count: sequence.count)
    for position in sequence.indices {
        let value = sequence[position]
        if value < 0 { continue }
        // Fast path: sequences that are mostly in order extend the run.
        if let last = tails.last, sequence[last] < value {
            previous[position] = last
            tails.append(position)
            continue
        }
        var low = 0, high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if sequence[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        previous[position] = low > 0 ? tails[low - 1] : -1
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var position = tails.last ?? -1
    while position >= 0 {
        onRun[position] = true
        position = previous[position]
    }
    return onRun
}
