/// A table of `Identifiable` values inside a store's state: normalized storage that many views
/// can observe one entity at a time (Verge's ORM, Redux Toolkit's entity adapter).
///
/// Put tables in the state and change them inside `commit`:
///
/// ```swift
/// struct Todo: Identifiable, Equatable, Codable, Sendable {
///     var id: Int
///     var title: String
///     var listID: TodoList.ID?
/// }
///
/// struct AppState: Equatable, Sendable {
///     var todos = EntityTable<Todo>()
/// }
///
/// try store.commit { state in
///     try state.todos.insert(Todo(id: 1, title: "Milk", listID: nil))
///     try state.todos.update(1) { $0.title = "Oat milk" }
///     state.todos.delete(1)
/// }
/// let todo = store.entity(1, in: \.todos)          // re-runs only when todo 1 changes
/// ```
///
/// **Cost.** The table is a persistent hash trie, its insertion order and its ordered indexes
/// persistent B+ trees: a change copies only the few nodes on its paths (O(log n) of them, and
/// at most one leaf of 128 entries per tree), however many entities there are and although the
/// store keeps the previous state. Comparing two versions (the store does on every commit) and
/// listing what changed between them (``changes(since:)``) take time proportional to what
/// changed: O(k log n) for k changed entities, entities deleted and inserted again (moved)
/// included. Declared indexes (``IndexedEntity``) are kept up to date by every change,
/// incrementally.
///
/// **Order.** ``all`` and iteration list the entities in the order they were inserted (an
/// update keeps an entity's place); ordered indexes list them by a key.
public struct EntityTable<Entity: Identifiable & Equatable & Sendable>: Sendable where Entity.ID: Sendable {
    /// An entity's identifier.
    public typealias ID = Entity.ID

    @usableFromInline var storage = _HashTrie<ID, _EntityRow<Entity>>()
    @usableFromInline var insertionOrder = _SortedChunks<_OrderedEntry<UInt64, ID>>()
    @usableFromInline var indexes: [any _EntityIndexStorage<Entity>]
    @usableFromInline var nextSequence: UInt64 = 0

    /// Creates an empty table, with the indexes `Entity` declares (``IndexedEntity``).
    public init() {
        indexes = _declaredIndexes(of: Entity.self).map { $0.makeStorage() }
    }

    /// Creates a table holding `entities`, in order.
    ///
    /// - Throws: ``EntityError/duplicateID(table:id:)`` when two share an id.
    public init(_ entities: some Sequence<Entity>) throws(EntityError) {
        self.init()
        for entity in entities { try insert(entity) }
    }

    // MARK: Reading

    /// The number of entities.
    @inlinable public var count: Int { storage.count }

    /// Whether the table is empty.
    @inlinable public var isEmpty: Bool { storage.count == 0 }

    /// The entity with `id`, or `nil`.
    ///
    /// - Complexity: O(log₃₂ n).
    @inlinable public subscript(id: ID) -> Entity? {
        storage[id]?.entity
    }

    /// Whether an entity has `id`.
    @inlinable public func contains(_ id: ID) -> Bool {
        storage[id] != nil
    }

    /// The entities with the given ids that exist, in the order of `ids`.
    ///
    /// - Complexity: O(k log₃₂ n) for k ids.
    public func entities(for ids: some Sequence<ID>) -> [Entity] {
        ids.compactMap { storage[$0]?.entity }
    }

    /// Every entity, in insertion order.
    ///
    /// - Complexity: O(n log₃₂ n).
    public var all: [Entity] {
        insertionOrder.elements.compactMap { storage[$0.id]?.entity }
    }

    /// Every id, in insertion order.
    ///
    /// - Complexity: O(n).
    public var ids: [ID] {
        insertionOrder.elements.map(\.id)
    }

    // MARK: Changing

    /// Adds `entity`.
    ///
    /// - Throws: ``EntityError/duplicateID(table:id:)`` when an entity already has its id (use
    ///   ``upsert(_:)`` to insert or replace).
    /// - Complexity: O(log n) for the insertion order and per index (plus copying at most one
    ///   shared leaf of each), plus O(log₃₂ n).
    @inlinable public mutating func insert(_ entity: Entity) throws(EntityError) {
        guard storage[entity.id] == nil else {
            throw .duplicateID(table: Self.name, id: "\(entity.id)")
        }
        add(entity)
    }

    /// Adds each of `entities`, in order.
    ///
    /// - Throws: ``EntityError/duplicateID(table:id:)`` at the first id already present; the
    ///   entities before it are inserted (a throwing commit discards them all).
    public mutating func insert(contentsOf entities: some Sequence<Entity>) throws(EntityError) {
        for entity in entities { try insert(entity) }
    }

    /// Inserts `entity`, or replaces the entity with its id (keeping its place in the
    /// insertion order). Replacing with an equal value changes nothing.
    ///
    /// - Returns: Whether the entity was inserted (not replaced).
    @inlinable @discardableResult
    public mutating func upsert(_ entity: Entity) -> Bool {
        if let row = storage[entity.id] {
            replace(row, with: entity)
            return false
        }
        add(entity)
        return true
    }

    /// Upserts each of `entities`, in order.
    ///
    /// - Complexity: O(k (log₃₂ n + log n per index)) for k entities: indexes are updated
    ///   incrementally, never rebuilt.
    public mutating func upsert(contentsOf entities: some Sequence<Entity>) {
        for entity in entities { upsert(entity) }
    }

    /// Replaces the entity with `entity`'s id. An equal value changes nothing.
    ///
    /// - Throws: ``EntityError/missingEntity(table:id:)`` when there is none.
    @inlinable public mutating func update(_ entity: Entity) throws(EntityError) {
        guard let row = storage[entity.id] else {
            throw .missingEntity(table: Self.name, id: "\(entity.id)")
        }
        replace(row, with: entity)
    }

    /// Changes the entity with `id` in place. A change that leaves it equal records nothing.
    ///
    /// ```swift
    /// try state.todos.update(id) { $0.isDone.toggle() }
    /// ```
    ///
    /// - Throws: ``EntityError/missingEntity(table:id:)`` when there is none, and
    ///   ``EntityError/idChanged(table:id:)`` when `transform` changes the id.
    @inlinable public mutating func update(_ id: ID, _ transform: (inout Entity) throws -> Void) throws {
        guard let row = storage[id] else {
            throw EntityError.missingEntity(table: Self.name, id: "\(id)")
        }
        var entity = row.entity
        try transform(&entity)
        guard entity.id == id else {
            throw EntityError.idChanged(table: Self.name, id: "\(id)")
        }
        replace(row, with: entity)
    }

    /// Removes the entity with `id`; returns it, or `nil` when there was none.
    ///
    /// - Complexity: O(log n) for the insertion order and per index, plus O(log₃₂ n).
    ///
    /// In a ``EntityDatabase``, delete through the database (`database.delete(id, from: \.table)`)
    /// so that its relationships' delete rules apply.
    @inlinable @discardableResult
    public mutating func delete(_ id: ID) -> Entity? {
        remove(id)
    }

    /// Removes the entities with the given ids that exist.
    public mutating func delete(_ ids: some Sequence<ID>) {
        for id in ids { delete(id) }
    }

    /// Removes every entity.
    public mutating func deleteAll() {
        storage.removeAll()
        insertionOrder = _SortedChunks()
        indexes = _declaredIndexes(of: Entity.self).map { $0.makeStorage() }
    }

    // MARK: Changes

    /// What changed from `old` to this table: the ids inserted, updated (to a different value),
    /// deleted, and moved (deleted and inserted again, so at a new place in the table's order).
    ///
    /// ```swift
    /// let changes = state.todos.changes(since: previous.todos)
    /// tableView.reloadRows(changes.updated)
    /// ```
    ///
    /// - Complexity: O(k log₃₂ n) for k changed entities when this table was made from `old`
    ///   by changes (as in a store's consecutive states); O(n) when the two share nothing.
    @inlinable public func changes(since old: EntityTable) -> EntityChanges<ID> {
        var changes = EntityChanges<ID>()
        storage.diff(from: old.storage) { id, before, after in
            switch (before, after) {
            case (nil, .some): changes.inserted.insert(id)
            case (.some, nil): changes.deleted.insert(id)
            case (.some(let before), .some(let after)):
                if before.entity != after.entity { changes.updated.insert(id) }
                if before.sequence != after.sequence { changes.moved.insert(id) }
            case (nil, nil): break
            }
        }
        return changes
    }

    // MARK: Internals

    @usableFromInline static var name: String { "EntityTable<\(Entity.self)>" }

    @inlinable
    mutating func add(_ entity: Entity) {
        nextSequence += 1
        let row = _EntityRow(entity: entity, sequence: nextSequence)
        storage.updateValue(row, forKey: entity.id)
        insertionOrder.insert(_OrderedEntry(key: row.sequence, sequence: row.sequence, id: entity.id))
        if !indexes.isEmpty { indexInsert(entity, sequence: row.sequence) }
        #if RIPPLE_INVARIANTS
        checkCounts(after: "inserting", entity.id)
        #endif
    }

    @inlinable
    mutating func replace(_ row: _EntityRow<Entity>, with entity: Entity) {
        guard entity != row.entity else { return }
        storage.updateValue(_EntityRow(entity: entity, sequence: row.sequence), forKey: entity.id)
        if !indexes.isEmpty { indexReplace(row.entity, with: entity, sequence: row.sequence) }
        #if RIPPLE_INVARIANTS
        checkCounts(after: "replacing", entity.id)
        #endif
    }

    @inlinable
    mutating func remove(_ id: ID) -> Entity? {
        guard let row = storage.removeValue(forKey: id) else { return nil }
        insertionOrder.remove(_OrderedEntry(key: row.sequence, sequence: row.sequence, id: id))
        if !indexes.isEmpty { indexRemove(row.entity, sequence: row.sequence) }
        #if RIPPLE_INVARIANTS
        checkCounts(after: "removing", id)
        #endif
        return row.entity
    }

    #if RIPPLE_INVARIANTS
    /// The invariant runs: the insertion order and every index hold one entry per entity.
    /// O(1) per index, so a debug build keeps each operation's complexity.
    @usableFromInline
    func checkCounts(after operation: String, _ id: ID) {
        precondition(
            insertionOrder.count == count,
            "RippleStore invariant: \(Self.name)'s insertion order holds \(insertionOrder.count) entries for \(count) entities after \(operation) \(id)."
        )
        for index in indexes {
            precondition(
                index.count == count,
                "RippleStore invariant: the index \(index.name) of \(Self.name) holds \(index.count) entries for \(count) entities after \(operation) \(id)."
            )
        }
    }
    #endif

    // The indexes' updates are not inlined: they go through the index's protocol anyway.

    @usableFromInline
    mutating func indexInsert(_ entity: Entity, sequence: UInt64) {
        for index in indexes.indices { indexes[index].insert(entity, sequence: sequence) }
    }

    @usableFromInline
    mutating func indexReplace(_ old: Entity, with new: Entity, sequence: UInt64) {
        for index in indexes.indices { indexes[index].replace(old, with: new, sequence: sequence) }
    }

    @usableFromInline
    mutating func indexRemove(_ entity: Entity, sequence: UInt64) {
        for index in indexes.indices { indexes[index].remove(entity, sequence: sequence) }
    }
}

extension EntityTable: Equatable {
    /// Whether both hold equal entities in the same insertion order (however they got there).
    ///
    /// The comparison looks only at what differs between the two versions: the entities whose
    /// value or place changed (their hash trie paths). An entity deleted and inserted again (a
    /// move) is compared by its position in each insertion order, found in O(log n), never by
    /// listing every id.
    ///
    /// - Complexity: O(k log n) for k differing entities when one was made from the other by
    ///   changes (a store compares its state on every commit); O(n) otherwise.
    @inlinable public static func == (lhs: EntityTable, rhs: EntityTable) -> Bool {
        if lhs.storage.isIdentical(to: rhs.storage) { return true }
        guard lhs.count == rhs.count else { return false }
        var equal = true
        // The entities in both whose place in the insertion order may differ.
        var moved: [(id: ID, before: UInt64, after: UInt64)] = []
        rhs.storage.diff(from: lhs.storage) { id, before, after in
            guard equal else { return }
            guard let before, let after, before.entity == after.entity else {
                equal = false
                return
            }
            if before.sequence != after.sequence { moved.append((id, before.sequence, after.sequence)) }
        }
        // Same ids with equal entities and the same sequences: the same order.
        guard equal, !moved.isEmpty, !lhs.insertionOrder.isIdentical(to: rhs.insertionOrder) else { return equal }
        // The entities whose sequences agree keep their relative order in both; the orders are
        // equal when every moved entity has the same position in both.
        guard moved.count <= Swift.max(16, lhs.count / 64) else { return lhs.ids == rhs.ids }
        return moved.allSatisfy { id, before, after in
            lhs.insertionOrder.rank(of: _OrderedEntry(key: before, sequence: before, id: id))
                == rhs.insertionOrder.rank(of: _OrderedEntry(key: after, sequence: after, id: id))
        }
    }
}

extension EntityTable: Sequence {
    /// Iterates the entities in insertion order.
    public func makeIterator() -> IndexingIterator<[Entity]> {
        all.makeIterator()
    }
}

extension EntityTable: CustomStringConvertible {
    /// The entities, in insertion order.
    public var description: String {
        "EntityTable(\(all.map { "\($0)" }.joined(separator: ", ")))"
    }
}

extension EntityTable: Codable where Entity: Codable {
    /// Decodes the entities, in order, and rebuilds the declared indexes.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when two entities share an id: a table never
    ///   silently drops one.
    public init(from decoder: any Decoder) throws {
        let entities = try [Entity](from: decoder)
        self.init()
        for entity in entities {
            do {
                try insert(entity)
            } catch {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "\(error)"))
            }
        }
    }

    /// Encodes the entities as an array, in insertion order.
    public func encode(to encoder: any Encoder) throws {
        try all.encode(to: encoder)
    }
}

/// An entity and its place in the insertion order.
@usableFromInline
struct _EntityRow<Entity: Equatable & Sendable>: Equatable, Sendable {
    @usableFromInline let entity: Entity
    @usableFromInline let sequence: UInt64

    @inlinable
    init(entity: Entity, sequence: UInt64) {
        self.entity = entity
        self.sequence = sequence
    }
}

/// An entry of an ordered list: ordered by key, then by insertion.
///
/// The order is total even for keys that are not equal to themselves (a floating-point NaN):
/// such keys count as equal to each other and greater than every other key (as PostgreSQL
/// orders NaN), so an entry with a NaN key is found again, removed and replaced like any other.
/// With `<` alone, an entry with a NaN key compares neither less, greater nor equal to
/// anything, a binary search cannot find it, and a removal would leave it behind.
@usableFromInline
struct _OrderedEntry<Key: Comparable, ID>: Comparable {
    @usableFromInline let key: Key
    @usableFromInline let sequence: UInt64
    @usableFromInline let id: ID

    @inlinable
    init(key: Key, sequence: UInt64, id: ID) {
        self.key = key
        self.sequence = sequence
        self.id = id
    }

    /// Whether `lhs` orders before `rhs`, in the total order described above.
    @inlinable @inline(__always)
    static func keyPrecedes(_ lhs: Key, _ rhs: Key) -> Bool {
        if lhs < rhs { return true }
        if lhs == rhs || rhs < lhs { return false }
        // Unordered: at least one is not equal to itself. An ordinary key precedes it.
        return lhs == lhs
    }

    /// Whether `lhs` and `rhs` are the same place in the total order.
    @inlinable @inline(__always)
    static func keysMatch(_ lhs: Key, _ rhs: Key) -> Bool {
        lhs == rhs || (lhs != lhs && rhs != rhs)
    }

    @inlinable
    static func < (lhs: _OrderedEntry, rhs: _OrderedEntry) -> Bool {
        keyPrecedes(lhs.key, rhs.key) || (lhs.sequence < rhs.sequence && keysMatch(lhs.key, rhs.key))
    }

    @inlinable
    static func == (lhs: _OrderedEntry, rhs: _OrderedEntry) -> Bool {
        lhs.sequence == rhs.sequence && keysMatch(lhs.key, rhs.key)
    }
}

extension _OrderedEntry: Sendable where Key: Sendable, ID: Sendable {}
