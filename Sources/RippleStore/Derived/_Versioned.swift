/// A value read from a store's state, with the version of that state: what a node holds when
/// it is written from the store's publishes (an observed entity, a closure selector's result).
///
/// Such a node drops a write of an older version (``isNotNewer(_:_:)`` as its equality), as the
/// store's own node does: a commit made inside a `batch` on another thread is published into
/// that batch, whose writes are applied when it ends, possibly after a newer commit's.
@usableFromInline
struct _Versioned<Value: Sendable>: Sendable {
    @usableFromInline let value: Value
    @usableFromInline let version: UInt64

    @inlinable
    init(_ value: Value, version: UInt64) {
        self.value = value
        self.version = version
    }

    /// Whether `new` is of the same version as `old` or an older one: the equality of a node
    /// holding versioned values, which then drops such a write.
    @inlinable
    static func isNotNewer(_ old: Self, _ new: Self) -> Bool {
        new.version <= old.version
    }
}
