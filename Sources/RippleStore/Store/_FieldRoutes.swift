import Ripple

/// How a store of a ``StateFields`` state routes its commits: each field read by a key-path
/// reader has a node (`tick`) that a commit writes, with its snapshot, when the field changed,
/// and the readers under that field depend on it, and read from it, instead of the whole
/// state.
///
/// The fields' key paths are matched to readers' key paths by their descriptions
/// (`\AppState.items` is a prefix of `\AppState.items.<computed … (Int)>`): Swift offers no
/// other way to split a key path into its components. A match only decides which node a reader
/// depends on; a reader that matches no field depends on the whole state, as with a plain
/// state. A field whose description has a computed component (a subscript's arguments are not
/// printed, so two of them can print the same) matches only its own key path.
final class _FieldRoutes<State>: @unchecked Sendable {
    // @unchecked: `printedFields` is guarded by `lock`.
    let fields: [StateField<State>]
    private let lock = _Lock()
    /// Each field's key path, printed (`nil` for one matched only by equality); made when the
    /// first reader is matched, so that a store no reader reads prints nothing.
    private var printedFields: [String?]?

    init(_ fields: [StateField<State>]) {
        self.fields = fields
    }

    /// ``printedFields``, made the first time (lock not held).
    private var prefixes: [String?] {
        if let made = lock.withLock({ printedFields }) { return made }
        let made = fields.map { field -> String? in
            let printed = String(reflecting: field.keyPath as AnyKeyPath)
            return printed.contains("<") ? nil : printed
        }
        lock.withLock { printedFields = made }
        return made
    }

    /// The index of the field `keyPath` reads through (the longest match), if any.
    ///
    /// - Complexity: O(*f*) string comparisons for *f* fields; made once per key path.
    func field(containing keyPath: AnyKeyPath) -> Int? {
        if let exact = fields.firstIndex(where: { ($0.keyPath as AnyKeyPath) == keyPath }) { return exact }
        let printed = String(reflecting: keyPath)
        var best: (index: Int, length: Int)?
        for (index, prefix) in prefixes.enumerated() {
            guard let prefix, printed.count > prefix.count, printed.hasPrefix(prefix) else { continue }
            let next = printed[printed.index(printed.startIndex, offsetBy: prefix.count)]
            guard next == "." || next == "?" || next == "!" || next == "[" else { continue }
            if prefix.count > best?.length ?? -1 { best = (index, prefix.count) }
        }
        return best?.index
    }

    /// The fields of `State` when it conforms to ``StateFields``, else `nil`.
    static func ofState() -> _FieldRoutes? {
        guard let type = State.self as? any StateFields.Type else { return nil }
        func fields<Fields: StateFields>(_ type: Fields.Type) -> Any { type.stateFields }
        guard let fields = fields(type) as? [StateField<State>] else { return nil }
        return _FieldRoutes(fields)
    }
}

/// A field some reader reads through: the node its readers depend on, and the comparison a
/// commit makes. Not generic: the store's unspecialized commit loops over these.
final class _FieldRoute: Sendable {
    /// The published snapshot in which the field last changed (or the one published when the
    /// route was made): its readers read the field from it. Only moves forward, as `node`.
    let tick: Stored<_AnySnapshot>
    /// Whether the field is equal in two published snapshots.
    let isUnchanged: @Sendable (_AnySnapshot, _AnySnapshot) -> Bool

    init<State: Sendable>(_ field: StateField<State>, starting snapshot: _AnySnapshot, name: String) {
        tick = Stored(snapshot, name: name, equals: { old, new in new.version <= old.version })
        // The comparison alone is captured: reaching it through the field would look up the
        // metadata of `StateField<State>` and of its key path's type on every commit.
        let isEqual = field.isEqual
        isUnchanged = { old, new in
            isEqual(
                unsafeDowncast(old, to: _Snapshot<State>.self).state,
                unsafeDowncast(new, to: _Snapshot<State>.self).state)
        }
    }
}
