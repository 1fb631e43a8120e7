/// A value that groups several ``EntityTable``s and the relationships between them, so that
/// inserts check references and deletes apply each relationship's rule, in the same commit.
///
/// ```swift
/// struct Database: EntityDatabase {
///     var lists = EntityTable<TodoList>()
///     var todos = EntityTable<Todo>()
///
///     static var relationships: [EntityRelationship<Database>] {
///         [.reference(from: \.todos, by: \.listID, to: \.lists, onDelete: .cascade)]
///     }
/// }
///
/// try store.commit { state in
///     try state.database.insert(TodoList(id: 1, name: "Groceries"), into: \.lists)
///     try state.database.insert(Todo(id: 1, title: "Milk", listID: 1), into: \.todos)
///     state.database.delete(1, from: \.lists)        // deletes the list and its todos
/// }
/// ```
///
/// Change tables directly (`state.database.todos.update(…)`) when no relationship is involved;
/// go through the database to insert, update or delete entities that relationships connect.
/// Several tables changed in one commit are published together.
public protocol EntityDatabase: Equatable, Sendable {
    /// How the tables refer to each other. None by default.
    static var relationships: [EntityRelationship<Self>] { get }
}

extension EntityDatabase {
    /// No relationships.
    public static var relationships: [EntityRelationship<Self>] { [] }

    /// Inserts `entity` into `table`, after checking that every entity it refers to exists.
    ///
    /// - Throws: ``EntityError/missingReference(table:id:foreignKey:target:targetID:)`` or
    ///   ``EntityError/duplicateID(table:id:)``; the database is then unchanged.
    public mutating func insert<Entity>(_ entity: Entity, into table: WritableKeyPath<Self, EntityTable<Entity>>)
        throws(EntityError)
    {
        try checkReferences(of: entity, in: table)
        try self[keyPath: table].insert(entity)
    }

    /// Inserts or replaces `entity` in `table`, after checking its references.
    ///
    /// - Throws: ``EntityError/missingReference(table:id:foreignKey:target:targetID:)``.
    @discardableResult
    public mutating func upsert<Entity>(_ entity: Entity, into table: WritableKeyPath<Self, EntityTable<Entity>>)
        throws(EntityError) -> Bool
    {
        try checkReferences(of: entity, in: table)
        return self[keyPath: table].upsert(entity)
    }

    /// Changes the entity with `id` in `table`, then checks its references.
    ///
    /// - Throws: ``EntityError``; the database is then unchanged.
    public mutating func update<Entity>(
        _ id: Entity.ID, in table: WritableKeyPath<Self, EntityTable<Entity>>,
        _ transform: (inout Entity) throws -> Void
    ) throws {
        guard var entity = self[keyPath: table][id] else {
            throw EntityError.missingEntity(table: EntityTable<Entity>.name, id: "\(id)")
        }
        try transform(&entity)
        guard entity.id == id else {
            throw EntityError.idChanged(table: EntityTable<Entity>.name, id: "\(id)")
        }
        try checkReferences(of: entity, in: table)
        try self[keyPath: table].update(entity)
    }

    /// Deletes the entity with `id` from `table` and applies the delete rule of every
    /// relationship that refers to `table`: leave the referring entities, nullify their
    /// reference, or delete them too (and so on, through their own relationships).
    ///
    /// The rules apply depth first, as a recursive delete would: each relationship in the
    /// order ``relationships`` lists them, the referring entities in insertion order, each
    /// cascaded entity's own rules before the next one's. The work is kept in a list, not on
    /// the call stack, so a cascade through any number of levels (a parent chain of 100 000
    /// entities) runs in constant stack space.
    ///
    /// - Returns: The deleted entity, or `nil` when there was none.
    /// - Complexity: O(log n) for the entity, plus O(k log n) for the k entities that refer to
    ///   it, found through their grouping index, and so on through the cascade.
    @discardableResult
    public mutating func delete<Entity>(_ id: Entity.ID, from table: WritableKeyPath<Self, EntityTable<Entity>>)
        -> Entity?
    {
        guard let deleted = self[keyPath: table].delete(id) else { return nil }
        var work = _DeleteWork<Self>(relationships: Self.relationships)
        work.queueRules(after: table, deleting: AnyHashable(id))
        while let step = work.steps.popLast() { step.run(&self, &work) }
        return deleted
    }

    /// Deletes the entities with the given ids from `table`, applying the delete rules.
    public mutating func delete<Entity>(
        _ ids: some Sequence<Entity.ID>, from table: WritableKeyPath<Self, EntityTable<Entity>>
    ) {
        for id in ids { delete(id, from: table) }
    }

    private func checkReferences<Entity>(of entity: Entity, in table: WritableKeyPath<Self, EntityTable<Entity>>)
        throws(EntityError)
    {
        for relationship in Self.relationships where relationship.source.keyPath == table {
            if let error = relationship.check(self, entity) { throw error }
        }
    }
}

/// What happens to the entities that refer to a deleted entity.
public enum DeleteRule: Sendable {
    /// Nothing: they keep the id of an entity that no longer exists.
    case leave
    /// Their reference is set to `nil`.
    case nullify
    /// They are deleted too, applying their own relationships' rules.
    case cascade
}

/// A reference by id from the entities of one table to those of another, with a rule for
/// deletes (``EntityDatabase/relationships``).
public struct EntityRelationship<Database: EntityDatabase>: Sendable {
    let source: _AnyKeyPath
    let target: _AnyKeyPath
    let check: @Sendable (Database, Any) -> EntityError?
    /// Applies the rule for the deleted id: nullifies at once, queues cascaded deletes.
    let applyDelete: @Sendable (inout Database, AnyHashable, inout _DeleteWork<Database>) -> Void

    /// The entities of `source` refer to those of `target` through the optional id at
    /// `foreignKey` (`nil`: no reference).
    ///
    /// ```swift
    /// .reference(from: \.todos, by: \.listID, to: \.lists, onDelete: .nullify)
    /// ```
    ///
    /// - Precondition: The source entity declares `.grouped(by: foreignKey)` in its
    ///   ``IndexedEntity/indexes`` when `rule` is not `.leave`: a delete finds the referring
    ///   entities through it, without scanning the table.
    public static func reference<Source, Target>(
        from source: any WritableKeyPath<Database, EntityTable<Source>> & Sendable,
        by foreignKey: any WritableKeyPath<Source, Target.ID?> & Sendable,
        to target: any WritableKeyPath<Database, EntityTable<Target>> & Sendable,
        onDelete rule: DeleteRule
    ) -> EntityRelationship {
        let paths = _RelationshipPaths(source: source, foreignKey: foreignKey, target: target)
        return EntityRelationship(
            source: _AnyKeyPath(keyPath: source),
            target: _AnyKeyPath(keyPath: target),
            check: { database, entity in
                guard let entity = entity as? Source, let targetID = entity[keyPath: paths.foreignKey] else {
                    return nil
                }
                guard database[keyPath: paths.target][targetID] == nil else { return nil }
                return .missingReference(
                    table: EntityTable<Source>.name, id: "\(entity.id)", foreignKey: "\(paths.foreignKey)",
                    target: EntityTable<Target>.name, targetID: "\(targetID)"
                )
            },
            applyDelete: { database, deletedID, work in
                guard rule != .leave, let targetID = deletedID.base as? Target.ID else { return }
                let table = database[keyPath: paths.source]
                guard table.hasGroupedIndex(paths.foreignKey) else {
                    fatalError(
                        "RippleStore: the relationship \(paths.source).\(paths.foreignKey) → \(paths.target) deletes with .\(rule), which needs a grouping index over \(paths.foreignKey): add .grouped(by: \(paths.foreignKey)) to \(Source.self)'s IndexedEntity indexes."
                    )
                }
                let referring = table.ids(where: paths.foreignKey, equals: Optional(targetID))
                switch rule {
                case .leave:
                    break
                case .nullify:
                    for id in referring {
                        if var entity = database[keyPath: paths.source][id] {
                            entity[keyPath: paths.foreignKey] = nil
                            database[keyPath: paths.source].upsert(entity)
                        }
                    }
                case .cascade:
                    work.queueDeletes(of: referring, from: paths.source)
                }
            }
        )
    }
}

extension EntityRelationship {
    /// The entities of `source` always refer to one entity of `target`, through the id at
    /// `foreignKey` (a todo that must belong to a list).
    ///
    /// ```swift
    /// .reference(from: \.todos, by: \.listID, to: \.lists, onDelete: .cascade)
    /// ```
    ///
    /// - Precondition: `rule` is `.leave` or `.cascade`: a reference that is not optional
    ///   cannot be nullified. With `.cascade`, the source entity declares
    ///   `.grouped(by: foreignKey)` in its ``IndexedEntity/indexes``.
    public static func reference<Source, Target>(
        from source: any WritableKeyPath<Database, EntityTable<Source>> & Sendable,
        by foreignKey: any KeyPath<Source, Target.ID> & Sendable,
        to target: any WritableKeyPath<Database, EntityTable<Target>> & Sendable,
        onDelete rule: DeleteRule
    ) -> EntityRelationship {
        if rule == .nullify {
            fatalError(
                "RippleStore: the relationship \(source).\(foreignKey) → \(target) cannot nullify: \(foreignKey) is not optional. Make it optional, or choose .cascade or .leave."
            )
        }
        let paths = _RequiredRelationshipPaths(source: source, foreignKey: foreignKey, target: target)
        return EntityRelationship(
            source: _AnyKeyPath(keyPath: source),
            target: _AnyKeyPath(keyPath: target),
            check: { database, entity in
                guard let entity = entity as? Source else { return nil }
                let targetID = entity[keyPath: paths.foreignKey]
                guard database[keyPath: paths.target][targetID] == nil else { return nil }
                return .missingReference(
                    table: EntityTable<Source>.name, id: "\(entity.id)", foreignKey: "\(paths.foreignKey)",
                    target: EntityTable<Target>.name, targetID: "\(targetID)"
                )
            },
            applyDelete: { database, deletedID, work in
                guard rule == .cascade, let targetID = deletedID.base as? Target.ID else { return }
                let table = database[keyPath: paths.source]
                guard table.hasGroupedIndex(paths.foreignKey) else {
                    fatalError(
                        "RippleStore: the relationship \(paths.source).\(paths.foreignKey) → \(paths.target) deletes with .cascade, which needs a grouping index over \(paths.foreignKey): add .grouped(by: \(paths.foreignKey)) to \(Source.self)'s IndexedEntity indexes."
                    )
                }
                work.queueDeletes(of: table.ids(where: paths.foreignKey, equals: targetID), from: paths.source)
            }
        )
    }
}

/// The work left in a delete (``EntityDatabase/delete(_:from:)``): a stack of steps, so that a
/// cascade runs in a loop rather than one nested call per level.
struct _DeleteWork<Database: EntityDatabase> {
    /// One step: apply one rule to one deleted id, or delete one cascaded entity.
    struct Step {
        let run: (inout Database, inout _DeleteWork) -> Void
    }

    let relationships: [EntityRelationship<Database>]
    /// The steps left, the next one last.
    var steps: [Step] = []

    init(relationships: [EntityRelationship<Database>]) {
        self.relationships = relationships
    }

    /// Queues the rules of the relationships that refer to `table`, for its deleted `id`, to
    /// run in declaration order.
    mutating func queueRules(after table: AnyKeyPath, deleting id: AnyHashable) {
        for relationship in relationships.reversed() where relationship.target.keyPath == table {
            steps.append(Step { database, work in relationship.applyDelete(&database, id, &work) })
        }
    }

    /// Queues the deletes of `ids` from `table`, to run in the order of `ids`, each followed by
    /// its own rules.
    mutating func queueDeletes<Entity>(of ids: [Entity.ID], from table: WritableKeyPath<Database, EntityTable<Entity>>)
    {
        for id in ids.reversed() {
            steps.append(
                Step { database, work in
                    if database[keyPath: table].delete(id) != nil {
                        work.queueRules(after: table, deleting: AnyHashable(id))
                    }
                })
        }
    }
}

/// The key paths of a relationship whose reference is required, sendable.
struct _RequiredRelationshipPaths<
    Database, Source: Identifiable & Equatable & Sendable, Target: Identifiable & Equatable & Sendable
>: @unchecked Sendable where Source.ID: Sendable, Target.ID: Sendable {
    let source: WritableKeyPath<Database, EntityTable<Source>>
    let foreignKey: KeyPath<Source, Target.ID>
    let target: WritableKeyPath<Database, EntityTable<Target>>
}

/// The key paths of a relationship, sendable (key paths are immutable).
struct _RelationshipPaths<
    Database, Source: Identifiable & Equatable & Sendable, Target: Identifiable & Equatable & Sendable
>: @unchecked Sendable where Source.ID: Sendable, Target.ID: Sendable {
    let source: WritableKeyPath<Database, EntityTable<Source>>
    let foreignKey: WritableKeyPath<Source, Target.ID?>
    let target: WritableKeyPath<Database, EntityTable<Target>>
}
