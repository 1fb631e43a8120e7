/// Why a change to an ``EntityTable`` or an ``EntityDatabase`` was refused. Thrown inside a
/// commit, it leaves the state as it was.
///
/// ```swift
/// do {
///     try store.commit { try $0.todos.insert(todo) }
/// } catch EntityError.duplicateID(let table, let id) {
///     print("\(table) already has \(id)")
/// }
/// ```
public enum EntityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An insert found an entity with the same id (use `upsert` to insert or replace).
    case duplicateID(table: String, id: String)
    /// An update or a lookup that requires it found no entity with the id.
    case missingEntity(table: String, id: String)
    /// An update changed the entity's id.
    case idChanged(table: String, id: String)
    /// An entity refers, through `foreignKey`, to an entity that is not in `target`.
    case missingReference(table: String, id: String, foreignKey: String, target: String, targetID: String)

    /// What went wrong, naming the table and the ids.
    public var description: String {
        switch self {
        case .duplicateID(let table, let id):
            "\(table) already has an entity with id \(id): insert adds a new entity; use upsert to insert or replace."
        case .missingEntity(let table, let id):
            "\(table) has no entity with id \(id)."
        case .idChanged(let table, let id):
            "An update of \(id) in \(table) changed the entity's id: an update keeps the id; delete and insert instead."
        case .missingReference(let table, let id, let foreignKey, let target, let targetID):
            "\(id) in \(table) refers through \(foreignKey) to \(targetID), which is not in \(target)."
        }
    }
}
