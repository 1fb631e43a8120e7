/// One batch of changes to a sectioned list, as a table or collection view applies it in
/// `performBatchUpdates`: the sections' changes, then the items' in the sections that stay.
///
/// Indices follow UIKit's rules, as in ``ListChanges``: deletions and updates are positions
/// in the old list, insertions in the new one, and moves go from old to new. The items of an
/// inserted or deleted section are not listed (the section change covers them); an item that
/// moves to another section is reported as a deletion and an insertion.
public struct ListUpdate: Hashable, Sendable, CustomStringConvertible {
    /// A move of one item, from its old position to its new one.
    public struct Move: Hashable, Sendable {
        /// The position in the old list.
        public var from: ListIndex
        /// The position in the new list.
        public var to: ListIndex

        /// Creates a move.
        public init(from: ListIndex, to: ListIndex) {
            self.from = from
            self.to = to
        }
    }

    /// The sections' changes.
    public var sections = ListChanges()
    /// Old positions of the items removed from sections that stay, ascending.
    public var itemDeletions: [ListIndex] = []
    /// New positions of the items added to sections that stay, ascending.
    public var itemInsertions: [ListIndex] = []
    /// Items that moved within a section (that may itself have moved).
    public var itemMoves: [Move] = []
    /// Old positions of the items whose content changed in place, ascending.
    public var itemUpdates: [ListIndex] = []

    /// Creates an empty update.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        sections.isEmpty && itemDeletions.isEmpty && itemInsertions.isEmpty && itemMoves.isEmpty && itemUpdates.isEmpty
    }

    /// A summary of the changes.
    public var description: String {
        "sections \(sections); items -\(itemDeletions) +\(itemInsertions) ↕\(itemMoves.map { "\($0.from)→\($0.to)" }) ~\(itemUpdates)"
    }
}
