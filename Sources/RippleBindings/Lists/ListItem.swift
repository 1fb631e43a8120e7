/// An item of a list whose values are not `Identifiable`: the value, and the identity a
/// ``ListDataSource`` matches it by (a key of the value, or its position).
///
/// A data source made with `ListDataSource(items:id:)` shows these. Read the value's
/// properties through it directly:
///
/// ```swift
/// struct City { var name: String; var population: Int }
/// let dataSource = ListDataSource(items: cities, id: \.name)
/// let city = dataSource.item(at: ListIndex(item: 0))     // a ListItem<City, String>
/// cell.textLabel?.text = city.name                       // city.value.name
/// ```
@dynamicMemberLookup
public struct ListItem<Value: Sendable, ID: Hashable & Sendable>: Identifiable, Sendable {
    /// The value shown.
    public var value: Value
    /// The identity the list matches the item by between two versions of the list.
    public let id: ID

    /// Creates an item.
    ///
    /// ```swift
    /// let item = ListItem(City(name: "Oslo", population: 709_000), id: "Oslo")
    /// ```
    public init(_ value: Value, id: ID) {
        self.value = value
        self.id = id
    }

    /// A property of the value.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        value[keyPath: keyPath]
    }
}

extension ListItem: Equatable where Value: Equatable {}
extension ListItem: Hashable where Value: Hashable {}

/// How a list of values that are not `Identifiable` matches them without a key: by position.
///
/// ```swift
/// let dataSource = ListDataSource(items: logLines, id: .position)
/// ```
public enum ListItemIdentity: Sendable {
    /// The item at the same index is the same row: a change at an index is an update of that
    /// row (shown when the value is `Equatable` and changed), a longer list inserts at the
    /// end, a shorter one deletes there. Nothing is ever moved.
    case position
}
