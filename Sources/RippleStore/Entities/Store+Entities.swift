import Ripple

extension Store {
    /// The per-entity registry of `table`, if anything observed one of its entities.
    func _entityObservers<Entity>(_ table: KeyPath<State, EntityTable<Entity>>) -> _EntityObservers<State, Entity>? {
        _core.existingRegistry(table)
    }

    /// The entity with `id` in the table at `table`, as a derived value: `nil` until it is
    /// inserted and again after it is deleted, and its readers run again only when that entity
    /// changed.
    ///
    /// ```swift
    /// let todo = store.entity(42, in: \.todos)
    /// let subscription = todo.sinkValue { changes in cell.render(changes.current) }
    /// ```
    ///
    /// A commit finds the observed entities it changed by comparing the table's two versions
    /// (``EntityTable/changes(since:)``), then looks each changed id up among the observed ones:
    /// its cost does not grow with the number of observers, and an entity nobody observes
    /// costs nothing. The value is updated in the same batch as the state, so a reader of both
    /// never sees them disagree. Observers of the same id share one node.
    ///
    /// - Complexity: O(1) to read; each commit costs O(k log₃₂ n) for k changed entities.
    public func entity<Entity>(_ id: Entity.ID, in table: any KeyPath<State, EntityTable<Entity>> & Sendable)
        -> Derived<Entity?>
    {
        let registry = _core.registry(
            table,
            make: { _EntityObservers<State, Entity>(path: _KeyPath(keyPath: table)) },
            hook: { registry in { old, new in registry.publish(old.state, new.state, version: new.version) } }
        )
        let node = registry.node(for: id) { [_core] in
            // The published state, which a reader of the store's state sees: a commit not yet
            // published is published later with this registry's hook; one being published now,
            // whose hooks were read before this registry existed, runs the hooks again once it
            // sees a hook was added (`_StoreCore.rerunHooks(from:)`).
            let snapshot = untracked { _core.node.value }
            return (snapshot.state[keyPath: table], snapshot.version)
        }
        // Named `store\.todos[id]` when a trace or a diagnostic first reads the name: the key
        // path's and the id's descriptions cost microseconds, more than the node.
        let path = _AnyKeyPath(keyPath: table)
        return Derived(
            Computed(describedBy: { [name] in "\(name)\(path.keyPath)[\(id)]" }) { node.value.value },
            sources: _sourceStores)
    }
}

/// The per-entity nodes of one table of a store: one `Stored` per observed id, held weakly,
/// updated by the store's publish hook for the ids a commit changed.
///
/// Each node holds the entity with the version of the state it was read from, and drops a
/// write of an older version (as the store's own node does): a commit made inside a `batch`
/// is written when the batch ends, possibly after a later commit from another thread.
final class _EntityObservers<State: Sendable, Entity: Identifiable & Equatable & Sendable>: @unchecked Sendable
where Entity.ID: Sendable {
    let path: _KeyPath<State, EntityTable<Entity>>
    private let lock = _Lock()
    private var nodes: [Entity.ID: _WeakEntityNode<Entity>] = [:]
    private var sweepAt = 64
    /// How many observed ids the last publish looked up (tests check it does not scan).
    private(set) var lastLookups = 0

    init(path: _KeyPath<State, EntityTable<Entity>>) {
        self.path = path
    }

    /// The node for `id`, made if needed with the entity in the table `start` returns.
    ///
    /// - Parameters:
    ///   - id: The observed entity's id.
    ///   - start: The table to start from, and the version of the state it belongs to: read
    ///     with the lock held, so that a commit's publish hook that runs after this sees the
    ///     node, and one that ran before left its state in that table.
    func node(for id: Entity.ID, start: () -> (table: EntityTable<Entity>, version: UInt64)) -> Stored<
        _Versioned<Entity?>
    > {
        lock.withLock {
            if let node = nodes[id]?.node { return node }
            let (table, version) = start()
            let node = Stored(
                _Versioned(table[id], version: version), equals: _Versioned.isNotNewer)
            nodes[id] = _WeakEntityNode(node: node)
            if nodes.count >= sweepAt {
                nodes = nodes.filter { $0.value.node != nil }
                sweepAt = max(64, nodes.count * 2)
            }
            return node
        }
    }

    /// A commit is being published: writes the observed entities it changed, stamped with
    /// `version`, the new state's version.
    func publish(_ old: State, _ new: State, version: UInt64) {
        let before = old[keyPath: path.keyPath]
        let after = new[keyPath: path.keyPath]
        guard !after.storage.isIdentical(to: before.storage), lock.withLock({ !nodes.isEmpty }) else { return }
        var changed: [(Entity.ID, Entity?)] = []
        after.storage.diff(from: before.storage) { id, old, new in
            if old?.entity != new?.entity { changed.append((id, new?.entity)) }
        }
        let writes = lock.withLock {
            lastLookups = changed.count
            return changed.compactMap { id, entity in nodes[id]?.node.map { ($0, entity) } }
        }
        for (node, entity) in writes { node.value = _Versioned(entity, version: version) }
    }
}

/// A per-entity node, held weakly: it lives while a derived value reads it.
struct _WeakEntityNode<Entity: Sendable> {
    weak var node: Stored<_Versioned<Entity?>>?
}
