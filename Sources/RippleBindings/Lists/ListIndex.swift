/// The position of an item in a sectioned list: a section and an item within it (UIKit's
/// `IndexPath(row:section:)`, without Foundation's indirection).
public struct ListIndex: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The item within the section.
    public var item: Int

    /// Creates a position.
    public init(section: Int = 0, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders by section, then item.
    public static func < (lhs: ListIndex, rhs: ListIndex) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `section.item`, such as `0.3`.
    public var description: String { "\(section).\(item)" }
}
