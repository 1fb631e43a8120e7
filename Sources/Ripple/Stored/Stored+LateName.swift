extension Stored {
    /// Creates a stored value that has no name yet, and may be given one once, later, by
    /// `_giveName(_:)`: until then, traces and diagnostics name it by `file` and `line`.
    ///
    /// For a wrapper that learns what it belongs to only once it is reached through it
    /// (`@Observed` is named `Model.property` by its model's first access). Costs one more
    /// allocation than a value created with a name.
    package convenience init(
        _ value: Value, nameableLaterEquals isEqual: (@Sendable (Value, Value) -> Bool)?, file: StaticString,
        line: UInt
    ) {
        self.init(value, nameableLaterComparingWith: isEqual, file: file, line: line)
    }

    /// Whether the value was created `nameableLater` and has not been named yet: a few loads,
    /// without the graph's lock, safe from any thread. Usable from inlinable code: an
    /// `@Observed` property's inlined accessor asks before it makes its key path's object.
    @usableFromInline package var _awaitsName: Bool { storedOrigin.awaitsName }

    /// Names a value created `nameableLater`, once: the first name given wins, later ones (from
    /// any thread) change nothing. `nil` keeps the file and line, and stops `_awaitsName`.
    /// Traces, dependency snapshots and diagnostics use the name from then on. No effect on
    /// other values.
    package func _giveName(_ name: String?) {
        storedOrigin.giveName(name)
    }
}
