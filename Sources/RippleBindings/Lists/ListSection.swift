/// One section of a list: an identity and its items.
///
/// ```swift
/// let sections = Stored([
///     ListSection(id: "Today", items: todayTasks),
///     ListSection(id: "Later", items: laterTasks),
/// ])
/// ```
public struct ListSection<ID: Hashable & Sendable, Item: Identifiable & Sendable>: Identifiable, Sendable where Item.ID: Sendable {
    /// The section's identity: sections are matched by it between two versions of a list.
    public var id: ID
    /// The section's items, matched by their own `id`.
    public var items: [Item]

    /// Creates a section.
    public init(id: ID, items: [Item]) {
        self.id = id
        self.items = items
    }
}

extension ListSection: Equatable where Item: Equatable {}
extension ListSection: Hashable where Item: Hashable {}
