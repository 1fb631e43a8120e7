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
    /// `endUpdates`): deletions from the last, then insertions and moves from the first
    /// position of the new list, then reloads at new indices.
    ///
    /// ```swift
    /// for step in changes.steps() {
    ///     switch step {
    ///     case .delete(let i): tableView.removeRows(at: [i])
    ///     case .insert(let i): tableView.insertRows(at: [i])
    ///     case .move(let from, let to): tableView.moveRow(at: from, to: to)
    ///     case .reload(let i): tableView.reloadData(forRowIndexes: [i], columnIndexes: all)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter oldCount: The number of elements in the old list.
    /// - Complexity: O(*n* + *m*·*d*) for *m* moves at distance up to *d*.
    public func steps(oldCount: Int) -> [Step] {
        var steps: [Step] = []
        // What each old index stays as: its new index, or -1 when deleted.
        var destination = [Int](repeating: -2, count: oldCount)
        for i in deletions { destination[i] = -1 }
        for move in moves { destination[move.from] = move.to }
        // Elements neither deleted nor moved keep their order around the others.
        let inserted = Set(insertions)
        let movedTo = Set(moves.map(\.to))
        var freeSlots = (0..<(oldCount - deletions.count + insertions.count))
            .lazy.filter { !inserted.contains($0) && !movedTo.contains($0) }.makeIterator()
        for i in 0..<oldCount where destination[i] == -2 { destination[i] = freeSlots.next() ?? -1 }
        for i in deletions.reversed() { steps.append(.delete(i)) }
        // The list after the deletions, by final index (-1 for nothing yet).
        var current = (0..<oldCount).filter { destination[$0] >= 0 }.map { destination[$0] }
        let newCount = current.count + insertions.count
        for j in 0..<newCount {
            if inserted.contains(j) {
                current.insert(j, at: j)
                steps.append(.insert(j))
                continue
            }
            if current[j] == j { continue }
            guard let from = current[j...].firstIndex(of: j) else { continue }
            current.remove(at: from)
            current.insert(j, at: j)
            steps.append(.move(from: from, to: j))
        }
        for i in updates { steps.append(.reload(destination[i])) }
        return steps
    }
}
