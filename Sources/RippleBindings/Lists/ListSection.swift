/// One section of a list: an identity and its items.
///
/// ```swift
/// let sections = Stored([
///     ListSection(id: "Today", items: todayTasks),
///     ListSection(id: "Later", items: laterTasks),
/// ])
/// ```
///
/// It is `Sendable` when its id and items are; a section of main-actor values (a plain
/// `struct` in a main-actor module, whose conformances are main-actor isolated) is what a
/// ``MainActorListDataSource`` shows.
public struct ListSection<ID: Hashable, Item: Identifiable>: Identifiable {
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

extension ListSection: Sendable where ID: Sendable, Item: Sendable {}
extension ListSection: Equatable where Item: Equatable {}
extension ListSection: Hashable where Item: Hashable {}
