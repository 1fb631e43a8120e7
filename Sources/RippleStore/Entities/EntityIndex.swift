/// An entity type that declares indexes for its tables: every ``EntityTable`` of it keeps them
/// up to date inside each commit.
///
/// ```swift
/// extension Todo: IndexedEntity {
///     static var indexes: [EntityIndex<Todo>] {
///         [.ordered(by: \.title), .grouped(by: \.listID)]
///     }
/// }
///
/// let byTitle = state.todos.sorted(by: \.title)              // ordered index
/// let inList = state.todos.entities(where: \.listID, equals: list.id)   // grouping index
/// ```
///
/// Indexes are declared on the type, not on a table, so a decoded table has them too.
public protocol IndexedEntity: Identifiable, Equatable, Sendable where ID: Sendable {
    /// The indexes every table of this type keeps.
    static var indexes: [EntityIndex<Self>] { get }
}

/// An index an ``IndexedEntity`` declares: ordered by a key, or grouping ids by a key.
public struct EntityIndex<Entity: Identifiable & Equatable & Sendable>: Sendable where Entity.ID: Sendable {
    let path: _AnyKeyPath
    let makeStorage: @Sendable () -> any _EntityIndexStorage<Entity>

    /// An index listing the entities ordered by the value at `keyPath` (equal keys in insertion
    /// order), for ``EntityTable/sorted(by:)``.
    ///
    /// The order is total for every key: a key that is not equal to itself (a floating-point
    /// NaN) counts as equal to every such key and greater than every other, so entities whose
    /// key is NaN come last, in insertion order, and are updated and deleted like any other.
    ///
    /// The index is a persistent B+ tree (leaves of at most 128 entries, inner nodes of at most
    /// 32 children), shared between a table's versions: a change copies the O(log n) nodes on
    /// its path and one leaf, however many entities there are, although the store keeps the
    /// previous state.
    ///
    /// - Complexity: Each insert, update of the key, or delete costs O(log n), plus copying at
    ///   most one leaf of 128 entries.
    public static func ordered<Key: Comparable & Sendable>(by keyPath: any KeyPath<Entity, Key> & Sendable)
        -> EntityIndex
    {
        let path = _KeyPath(keyPath: keyPath)
        return EntityIndex(path: _AnyKeyPath(keyPath: keyPath)) { _OrderedIndexStorage<Entity, Key>(path: path) }
    }

    /// An index grouping the entities by the value at `keyPath` (todos by list id), for
    /// ``EntityTable/entities(where:equals:)`` and relationships' delete rules.
    ///
    /// Keys that are not equal to themselves (a floating-point NaN) form one group, as the
    /// ordered index counts them equal: `entities(where: \.weight, equals: .nan)` lists every
    /// entity whose weight is NaN, and such entities are updated and deleted like any other.
    ///
    /// - Complexity: Each insert, update of the key, or delete costs O(log₃₂ n).
    public static func grouped<Key: Hashable & Sendable>(by keyPath: any KeyPath<Entity, Key> & Sendable) -> EntityIndex
    {
        let path = _KeyPath(keyPath: keyPath)
        return EntityIndex(path: _AnyKeyPath(keyPath: keyPath)) { _GroupedIndexStorage<Entity, Key>(path: path) }
    }
}

/// A key path of any type, sendable (key paths are immutable).
struct _AnyKeyPath: @unchecked Sendable {
    let keyPath: AnyKeyPath
}

/// The indexes `type` declares, if it is an ``IndexedEntity``.
func _declaredIndexes<Entity: Identifiable & Equatable & Sendable>(of type: Entity.Type) -> [EntityIndex<Entity>]
where Entity.ID: Sendable {
    guard let declaring = type as? any IndexedEntity.Type else { return [] }
    return _indexes(of: declaring) as? [EntityIndex<Entity>] ?? []
}

private func _indexes<Declaring: IndexedEntity>(of type: Declaring.Type) -> Any {
    type.indexes
}

/// An index's data inside a table: a value, changed along with the table.
@usableFromInline
protocol _EntityIndexStorage<Entity>: Sendable {
    associatedtype Entity: Identifiable & Equatable & Sendable where Entity.ID: Sendable
    var keyPath: AnyKeyPath { get }
    /// How many entities the index holds: always the table's count.
    var count: Int { get }
    /// What the index is, for the invariant checks' messages.
    var name: String { get }
    mutating func insert(_ entity: Entity, sequence: UInt64)
    mutating func remove(_ entity: Entity, sequence: UInt64)
    mutating func replace(_ old: Entity, with new: Entity, sequence: UInt64)
}

/// An ordered index: (key, insertion) → id, in a persistent sorted tree (``_SortedChunks``).
struct _OrderedIndexStorage<Entity: Identifiable & Equatable & Sendable, Key: Comparable & Sendable>:
    _EntityIndexStorage
where Entity.ID: Sendable {
    let path: _KeyPath<Entity, Key>
    var entries = _SortedChunks<_OrderedEntry<Key, Entity.ID>>()

    var keyPath: AnyKeyPath { path.keyPath }
    var count: Int { entries.count }
    var name: String { ".ordered(by: \(path.keyPath))" }

    mutating func insert(_ entity: Entity, sequence: UInt64) {
        entries.insert(_OrderedEntry(key: entity[keyPath: path.keyPath], sequence: sequence, id: entity.id))
    }

    mutating func remove(_ entity: Entity, sequence: UInt64) {
        entries.remove(_OrderedEntry(key: entity[keyPath: path.keyPath], sequence: sequence, id: entity.id))
    }

    mutating func replace(_ old: Entity, with new: Entity, sequence: UInt64) {
        let oldKey = old[keyPath: path.keyPath]
        let newKey = new[keyPath: path.keyPath]
        guard !_OrderedEntry<Key, Entity.ID>.keysMatch(oldKey, newKey) else { return }
        entries.remove(_OrderedEntry(key: oldKey, sequence: sequence, id: old.id))
        entries.insert(_OrderedEntry(key: newKey, sequence: sequence, id: new.id))
    }
}

/// A grouping index's key: the key itself, or one group for every key that is not equal to
/// itself (a floating-point NaN), which a hash trie, finding keys with `==`, could otherwise
/// never find again: each such entity got a group of its own that no update or delete removed.
enum _GroupKey<Key: Hashable & Sendable>: Hashable, Sendable {
    case value(Key)
    case notEqualToItself

    init(_ key: Key) {
        self = key == key ? .value(key) : .notEqualToItself
    }
}

/// A grouping index: key → (id → insertion), in hash tries.
struct _GroupedIndexStorage<Entity: Identifiable & Equatable & Sendable, Key: Hashable & Sendable>: _EntityIndexStorage
where Entity.ID: Sendable {
    let path: _KeyPath<Entity, Key>
    var groups = _HashTrie<_GroupKey<Key>, _HashTrie<Entity.ID, UInt64>>()
    private(set) var count = 0

    var keyPath: AnyKeyPath { path.keyPath }
    var name: String { ".grouped(by: \(path.keyPath))" }

    mutating func insert(_ entity: Entity, sequence: UInt64) {
        add(entity.id, sequence, to: entity[keyPath: path.keyPath])
    }

    mutating func remove(_ entity: Entity, sequence: UInt64) {
        drop(entity.id, from: entity[keyPath: path.keyPath])
    }

    mutating func replace(_ old: Entity, with new: Entity, sequence: UInt64) {
        let oldKey = old[keyPath: path.keyPath]
        let newKey = new[keyPath: path.keyPath]
        guard _GroupKey(oldKey) != _GroupKey(newKey) else { return }
        drop(old.id, from: oldKey)
        add(new.id, sequence, to: newKey)
    }

    private mutating func add(_ id: Entity.ID, _ sequence: UInt64, to key: Key) {
        let key = _GroupKey(key)
        var members = groups.removeValue(forKey: key) ?? _HashTrie()
        if members.updateValue(sequence, forKey: id) == nil { count += 1 }
        groups.updateValue(members, forKey: key)
    }

    private mutating func drop(_ id: Entity.ID, from key: Key) {
        let key = _GroupKey(key)
        guard var members = groups.removeValue(forKey: key) else { return }
        if members.removeValue(forKey: id) != nil { count -= 1 }
        if members.count > 0 { groups.updateValue(members, forKey: key) }
    }

    /// The ids in the group, in insertion order.
    func ids(for key: Key) -> [Entity.ID] {
        guard let members = groups[_GroupKey(key)] else { return [] }
        var list: [(UInt64, Entity.ID)] = []
        list.reserveCapacity(members.count)
        members.forEach { id, sequence in list.append((sequence, id)) }
        list.sort { $0.0 < $1.0 }
        return list.map(\.1)
    }

    func count(for key: Key) -> Int {
        groups[_GroupKey(key)]?.count ?? 0
    }
}

extension EntityTable {
    /// The entities ordered by the value at `keyPath` (equal values in insertion order), from
    /// the ordered index `Entity` declares over it.
    ///
    /// - Complexity: O(n log₃₂ n); no sorting.
    /// - Precondition: `Entity` declares `.ordered(by: keyPath)` in its ``IndexedEntity/indexes``.
    public func sorted<Key: Comparable & Sendable>(by keyPath: KeyPath<Entity, Key>) -> [Entity] {
        ids(sortedBy: keyPath).compactMap { storage[$0]?.entity }
    }

    /// The ids ordered by the value at `keyPath`, from the ordered index over it.
    ///
    /// - Complexity: O(n).
    /// - Precondition: `Entity` declares `.ordered(by: keyPath)`.
    public func ids<Key: Comparable & Sendable>(sortedBy keyPath: KeyPath<Entity, Key>) -> [ID] {
        orderedIndex(keyPath).entries.elements.map(\.id)
    }

    /// The entities whose value at `keyPath` equals `key`, in insertion order, from the grouping
    /// index over it.
    ///
    /// ```swift
    /// let groceries = state.todos.entities(where: \.listID, equals: groceriesID)
    /// ```
    ///
    /// - Complexity: O(k log k) for k entities in the group.
    /// - Precondition: `Entity` declares `.grouped(by: keyPath)`.
    public func entities<Key: Hashable & Sendable>(where keyPath: KeyPath<Entity, Key>, equals key: Key) -> [Entity] {
        ids(where: keyPath, equals: key).compactMap { storage[$0]?.entity }
    }

    /// The ids whose value at `keyPath` equals `key`, in insertion order.
    ///
    /// - Precondition: `Entity` declares `.grouped(by: keyPath)`.
    public func ids<Key: Hashable & Sendable>(where keyPath: KeyPath<Entity, Key>, equals key: Key) -> [ID] {
        groupedIndex(keyPath).ids(for: key)
    }

    /// How many entities have `key` at `keyPath`.
    ///
    /// - Complexity: O(1) after the lookup.
    /// - Precondition: `Entity` declares `.grouped(by: keyPath)`.
    public func count<Key: Hashable & Sendable>(where keyPath: KeyPath<Entity, Key>, equals key: Key) -> Int {
        groupedIndex(keyPath).count(for: key)
    }

    /// Whether `Entity` declares a grouping index over `keyPath`.
    func hasGroupedIndex(_ keyPath: AnyKeyPath) -> Bool {
        indexes.contains { $0.keyPath == keyPath && $0 is any _GroupedIndexMarker }
    }

    private func orderedIndex<Key: Comparable & Sendable>(_ keyPath: KeyPath<Entity, Key>) -> _OrderedIndexStorage<
        Entity, Key
    > {
        for index in indexes where index.keyPath == keyPath {
            if let ordered = index as? _OrderedIndexStorage<Entity, Key> { return ordered }
        }
        fatalError(
            "RippleStore: \(Self.name) has no ordered index over \(keyPath). Declare it: extension \(Entity.self): IndexedEntity { static var indexes: [EntityIndex<\(Entity.self)>] { [.ordered(by: \(keyPath))] } }."
        )
    }

    private func groupedIndex<Key: Hashable & Sendable>(_ keyPath: KeyPath<Entity, Key>) -> _GroupedIndexStorage<
        Entity, Key
    > {
        for index in indexes where index.keyPath == keyPath {
            if let grouped = index as? _GroupedIndexStorage<Entity, Key> { return grouped }
        }
        fatalError(
            "RippleStore: \(Self.name) has no grouping index over \(keyPath). Declare it: extension \(Entity.self): IndexedEntity { static var indexes: [EntityIndex<\(Entity.self)>] { [.grouped(by: \(keyPath))] } }."
        )
    }
}

/// Marks grouping indexes, whatever their key type.
protocol _GroupedIndexMarker {}
extension _GroupedIndexStorage: _GroupedIndexMarker {}
