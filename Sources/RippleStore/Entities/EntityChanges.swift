/// The ids a table's change inserted, updated (to a different value), deleted and moved: what
/// a commit did to an ``EntityTable``, so that observers need not compare the entities.
///
/// An entity deleted and inserted again in the same change is not inserted, updated or
/// deleted: it is in ``moved`` (its place in the table's order changed), and in ``updated`` too
/// if its value differs.
///
/// ```swift
/// store.sinkState { changes in
///     let todos = changes.entityChanges(\.todos)
///     tableView.insertRows(todos.inserted)
///     tableView.reloadRows(todos.updated)
///     tableView.deleteRows(todos.deleted)
///     tableView.moveRows(todos.moved)
/// }
/// ```
public struct EntityChanges<ID: Hashable & Sendable>: Equatable, Sendable {
    /// The ids that were not in the table before.
    public var inserted: Set<ID> = []
    /// The ids whose entity changed to a different value.
    public var updated: Set<ID> = []
    /// The ids that are no longer in the table.
    public var deleted: Set<ID> = []
    /// The ids deleted and inserted again: still in the table, at a new place in its insertion
    /// order (``EntityTable/all``, ``EntityTable/ids``), whether or not their value changed.
    public var moved: Set<ID> = []

    /// Creates a change description.
    public init(inserted: Set<ID> = [], updated: Set<ID> = [], deleted: Set<ID> = [], moved: Set<ID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.moved = moved
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && moved.isEmpty
    }
}

extension Changes {
    /// What the delivered commits did to the table at `keyPath`: for the first delivery (no
    /// previous state), every entity counts as inserted.
    ///
    /// - Complexity: Proportional to the number of changed entities (``EntityTable/changes(since:)``).
    public func entityChanges<Entity>(_ keyPath: KeyPath<State, EntityTable<Entity>>) -> EntityChanges<Entity.ID> {
        current[keyPath: keyPath].changes(since: previous?[keyPath: keyPath] ?? EntityTable())
    }
}
