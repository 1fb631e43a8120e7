extension ListChanges {
    /// One step of a change applied in order, each index valid in the list as the previous
    /// steps left it.
    public enum Step: Hashable, Sendable {
        /// Remove the element at this index.
        case delete(Int)
        /// Insert the new list's element at this index.
        case insert(Int)
        /// Move the element at `from` to `to`.
        case move(from: Int, to: Int)
        /// Reload the element at this index (an index in the new list: reload steps come last).
        case reload(Int)
    }

    /// The changes as steps to apply one after the other, for views that apply changes in
    /// order rather than as one batch (AppKit's `NSTableView` between `beginUpdates` and
    /// `endUpdates`): deletions from the last, then at most one move per element of
    /// ``moves``, then insertions from the first position of the new list, then reloads at
    /// new indices.
    ///
    /// A move step takes the element out of `from` and puts it back at `to`, both indices in
    /// the list as the previous steps left it: each moved element goes right after the
    /// element that precedes it in the new list (insertions aside), in the order of the new
    /// list, so the elements that stay never move.
    ///
    /// ```swift
    /// for step in changes.steps(oldCount: oldCount) {
    ///     switch step {
    ///     case .delete(let i): tableView.removeRows(at: [i])
    ///     case .insert(let i): tableView.insertRows(at: [i])
    ///     case .move(let from, let to): tableView.moveRow(at: from, to: to)
    ///     case .reload(let i): tableView.reloadData(forRowIndexes: [i], columnIndexes: all)
    ///     }
    /// }
    /// ```
    ///
    /// Changes whose indices do not fit a list of `oldCount` elements (a deletion, move or
    /// update at or past `oldCount`, an insertion or a move's destination past the new count)
    /// stop the program with a message naming the index.
    ///
    /// - Parameter oldCount: The number of elements in the old list.
    /// - Complexity: O(*n* + *m*·*d*) for *m* moves at distance up to *d* (the distance
    ///   between a move step's `from` and `to`).
    public func steps(oldCount: Int) -> [Step] {
        checkFits(oldCount: oldCount)
        var steps: [Step] = []
        steps.reserveCapacity(deletions.count + moves.count + insertions.count + updates.count)
        for i in deletions.reversed() { steps.append(.delete(i)) }
        let newToOld = _newToOld(oldCount: oldCount)
        var isMoved = [Bool](repeating: false, count: oldCount)
        for move in moves { isMoved[move.from] = true }
        // The list after the deletions, as old indices, and the position of each in it.
        var current: [Int] = []
        current.reserveCapacity(oldCount - deletions.count)
        var position = [Int](repeating: -1, count: oldCount)
        var isKept = [Bool](repeating: false, count: oldCount)
        for i in newToOld where i >= 0 { isKept[i] = true }
        for i in 0..<oldCount where isKept[i] {
            position[i] = current.count
            current.append(i)
        }
        // In the order of the new list, each moved element goes right after its predecessor
        // there (or first), which is already where it ends: the elements of the new list
        // then follow each other, and the insertions fit at their new indices.
        var predecessor = -1
        for i in newToOld where i >= 0 {
            defer { predecessor = i }
            guard isMoved[i] else { continue }
            let from = position[i]
            let to =
                predecessor < 0 ? 0 : (position[predecessor] < from ? position[predecessor] + 1 : position[predecessor])
            if from == to { continue }
            if from < to {
                for p in from..<to {
                    current[p] = current[p + 1]
                    position[current[p]] = p
                }
            } else {
                for p in stride(from: from, to: to, by: -1) {
                    current[p] = current[p - 1]
                    position[current[p]] = p
                }
            }
            current[to] = i
            position[i] = to
            steps.append(.move(from: from, to: to))
        }
        for j in insertions { steps.append(.insert(j)) }
        if !updates.isEmpty {
            var oldToNew = [Int](repeating: -1, count: oldCount)
            for (j, i) in newToOld.enumerated() where i >= 0 { oldToNew[i] = j }
            for i in updates { steps.append(.reload(oldToNew[i])) }
        }
        return steps
    }

    /// For each index of the new list, the index in the old list of the element there, or
    /// `-1` for an insertion: a moved element is where its move puts it, and the elements
    /// neither deleted nor moved fill the other positions in their old order.
    ///
    /// - Parameter oldCount: The number of elements in the old list.
    /// - Complexity: O(*n* + *m*).
    /// Stops the program, naming the index, when these changes do not fit a list of
    /// `oldCount` elements (see ``steps(oldCount:)``).
    private func checkFits(oldCount: Int) {
        let newCount = oldCount - deletions.count + insertions.count
        func fail(_ what: String, _ index: Int, _ count: Int, _ list: String) -> Never {
            _bindingsFailure(
                "ListChanges.steps(oldCount: \(oldCount)): \(what) \(index) is out of range 0..<\(count) of the \(list) list; the changes were made for lists of other lengths."
            )
        }
        guard oldCount >= 0, newCount >= 0 else {
            _bindingsFailure(
                "ListChanges.steps(oldCount: \(oldCount)): \(deletions.count) deletions do not fit \(oldCount) elements."
            )
        }
        for i in deletions where !(0..<oldCount).contains(i) { fail("deletion", i, oldCount, "old") }
        for i in updates where !(0..<oldCount).contains(i) { fail("update", i, oldCount, "old") }
        for i in insertions where !(0..<newCount).contains(i) { fail("insertion", i, newCount, "new") }
        for move in moves {
            if !(0..<oldCount).contains(move.from) { fail("move from", move.from, oldCount, "old") }
            if !(0..<newCount).contains(move.to) { fail("move to", move.to, newCount, "new") }
        }
        // Each old index is deleted, moved or updated at most once (an update is in place), and
        // each new index is inserted or a move's destination at most once.
        func repeated(_ what: String, _ index: Int, _ list: String) -> Never {
            _bindingsFailure(
                "ListChanges.steps(oldCount: \(oldCount)): \(what) \(index) names an index of the \(list) list that another change already names; each index may appear once."
            )
        }
        var oldUsed = [Bool](repeating: false, count: oldCount)
        for i in deletions {
            if oldUsed[i] { repeated("deletion", i, "old") }
            oldUsed[i] = true
        }
        for move in moves {
            if oldUsed[move.from] { repeated("move from", move.from, "old") }
            oldUsed[move.from] = true
        }
        for i in updates {
            if oldUsed[i] { repeated("update", i, "old") }
            oldUsed[i] = true
        }
        var newUsed = [Bool](repeating: false, count: newCount)
        for j in insertions {
            if newUsed[j] { repeated("insertion", j, "new") }
            newUsed[j] = true
        }
        for move in moves {
            if newUsed[move.to] { repeated("move to", move.to, "new") }
            newUsed[move.to] = true
        }
    }

    func _newToOld(oldCount: Int) -> [Int] {
        let newCount = oldCount - deletions.count + insertions.count
        var newToOld = [Int](repeating: -2, count: max(newCount, 0))
        var stays = [Bool](repeating: true, count: oldCount)
        for i in deletions { stays[i] = false }
        for j in insertions { newToOld[j] = -1 }
        for move in moves {
            stays[move.from] = false
            newToOld[move.to] = move.from
        }
        var next = 0
        for j in newToOld.indices where newToOld[j] == -2 {
            while next < oldCount, !stays[next] { next += 1 }
            newToOld[j] = next < oldCount ? next : -1
            next += 1
        }
        return newToOld
    }
}
