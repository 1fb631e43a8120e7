/// What changed between two versions of a list, in the form a table or collection view
/// applies in one batch of updates.
///
/// Indices follow UIKit's batch-update rules (`performBatchUpdates`):
/// - ``deletions`` and ``updates`` are indices in the **old** list;
/// - ``insertions`` are indices in the **new** list;
/// - each of ``moves`` goes from an old index to a new one.
///
/// Elements that are neither deleted nor moved keep their relative order. An element that
/// both moved and changed is reported as a deletion and an insertion (a table view cannot
/// reload and move one row in one batch).
///
/// ```swift
/// let changes = ListChanges(from: ["a", "b", "c"], to: ["c", "a", "d"], id: \.self)
/// // deletions [1] ("b"), insertions [2] ("d"), moves [2 → 0] ("c")
/// ```
public struct ListChanges: Hashable, Sendable, CustomStringConvertible {
    /// A move of one element, from its index in the old list to its index in the new one.
    public struct Move: Hashable, Sendable {
        /// The index in the old list.
        public var from: Int
        /// The index in the new list.
        public var to: Int

        /// Creates a move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Indices in the old list of the elements removed, ascending.
    public var deletions: [Int]
    /// Indices in the new list of the elements added, ascending.
    public var insertions: [Int]
    /// Elements that moved, by old index ascending.
    public var moves: [Move]
    /// Indices in the old list of the elements whose content changed in place, ascending.
    public var updates: [Int]

    /// Creates a change description.
    public init(deletions: [Int] = [], insertions: [Int] = [], moves: [Move] = [], updates: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty
    }

    /// The changes that replace every element of a list of `oldCount` with one of `newCount`
    /// (what a `reloadData()` stands for).
    public static func replacingAll(oldCount: Int, newCount: Int) -> ListChanges {
        ListChanges(deletions: Array(0..<oldCount), insertions: Array(0..<newCount))
    }

    /// A summary such as `-[1] +[2] ↕[2→0] ~[]`.
    public var description: String {
        let moves = self.moves.map { "\($0.from)→\($0.to)" }.joined(separator: ", ")
        return "-\(deletions) +\(insertions) ↕[\(moves)] ~\(updates)"
    }
}
