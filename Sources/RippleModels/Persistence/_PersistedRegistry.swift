import Ripple

/// The shared entry of every live ``Persisted``, one per store and key, so that two
/// `Persisted` for one key are one value (like `@AppStorage`).
///
/// An entry stays registered while a `Persisted` (a ``_PersistedHandle``) uses it and while its
/// last release is saving; a `Persisted` created for the key after that loads what was saved.
final class _PersistedRegistry: @unchecked Sendable {
    static let shared = _PersistedRegistry()

    private struct Key: Hashable {
        let store: ObjectIdentifier
        let key: String
    }

    private final class Slot {
        let entry: AnyObject
        let valueType: Any.Type
        let format: String
        /// Live handles.
        var handles = 1
        /// Releases of the last handle whose save is running.
        var closing = 0

        init(entry: AnyObject, valueType: Any.Type, format: String) {
            self.entry = entry
            self.valueType = valueType
            self.format = format
        }
    }

    private let lock = _Lock()
    private var slots: [Key: Slot] = [:]

    /// The entry for `key` in `store`, created if there is none, with one more handle.
    /// Stops the program if the key is in use with another type or format.
    func acquire<Value>(
        key: String,
        store: any KeyValueStore,
        coding: _PersistedCoding<Value>,
        migrate: (@Sendable (Any) -> Value?)?
    ) -> _PersistedEntry<Value> {
        let id = Key(store: store.identity, key: key)
        if let existing: _PersistedEntry<Value> = lock.withLock({ adopt(id, format: coding.format) }) {
            return existing
        }
        // Created outside the lock: it makes graph nodes and starts a reaction.
        let created = _PersistedEntry(key: key, store: store, coding: coding, migrate: migrate)
        let raced: _PersistedEntry<Value>? = lock.withLock {
            if let existing: _PersistedEntry<Value> = adopt(id, format: coding.format) { return existing }
            slots[id] = Slot(entry: created, valueType: Value.self, format: coding.format.rawValue)
            return nil
        }
        // A `created` that lost a race is released here, with the lock released.
        return raced ?? created
    }

    /// Takes one more handle on the registered entry for `id`, if any (lock held). A type or
    /// format mismatch is a programming error (two declarations disagree on what the key
    /// holds) that no caller could recover from, so it stops the program, with `fatalError`
    /// so that the message is printed in optimized builds too.
    private func adopt<Value>(_ id: Key, format: _PersistedCoding<Value>.Format) -> _PersistedEntry<Value>? {
        guard let slot = slots[id] else { return nil }
        guard let entry = slot.entry as? _PersistedEntry<Value>, slot.format == format.rawValue else {
            fatalError(
                "Ripple: Persisted '\(id.key)' is already used in this store as Persisted<\(slot.valueType)> stored as "
                    + "\(slot.format); it cannot also be Persisted<\(Value.self)> stored as \(format.rawValue). Every "
                    + "Persisted for one key of one store is one shared value, so they must agree on its type and format."
            )
        }
        slot.handles += 1
        return entry
    }

    /// Gives back one handle; the last one saves what is pending and unregisters the entry.
    func release<Value>(_ entry: _PersistedEntry<Value>) {
        let id = Key(store: entry.store.identity, key: entry.key)
        let isLast = lock.withLock { () -> Bool in
            guard let slot = slots[id], slot.entry === entry else { return false }
            slot.handles -= 1
            guard slot.handles == 0 else { return false }
            slot.closing += 1
            return true
        }
        guard isLast else { return }
        entry.close()
        let removed = lock.withLock { () -> Slot? in
            guard let slot = slots[id], slot.entry === entry else { return nil }
            slot.closing -= 1
            guard slot.handles == 0, slot.closing == 0 else { return nil }
            return slots.removeValue(forKey: id)
        }
        // Released here, with the lock released.
        _ = removed
    }
}

/// One use of a shared entry: a ``Persisted`` holds one, and a write it queued (inside a
/// reaction) keeps it alive, so that the entry's last release, which saves, comes after every
/// write made through it.
final class _PersistedHandle<Value: Sendable>: Sendable {
    let entry: _PersistedEntry<Value>

    init(key: String, store: any KeyValueStore, coding: _PersistedCoding<Value>, migrate: (@Sendable (Any) -> Value?)?)
    {
        entry = _PersistedRegistry.shared.acquire(key: key, store: store, coding: coding, migrate: migrate)
    }

    deinit {
        _PersistedRegistry.shared.release(entry)
    }
}
