/// One stored property of a ``StateFields`` state: its key path and how to compare it.
///
/// ```swift
/// static let stateFields: [StateField<AppState>] = [StateField(\.count), StateField(\.items)]
/// ```
public struct StateField<Root>: Sendable {
    /// The property's key path.
    public let keyPath: any PartialKeyPath<Root> & Sendable
    /// Whether two states hold equal values in this field.
    @usableFromInline let isEqual: @Sendable (Root, Root) -> Bool

    /// The field at `keyPath`, compared with its value's `==`.
    ///
    /// - Parameter keyPath: A stored property of the state (`\.items`).
    @inlinable
    public init<Value: Equatable & Sendable>(_ keyPath: any KeyPath<Root, Value> & Sendable) {
        self.keyPath = keyPath
        if let offset = MemoryLayout<Root>.offset(of: keyPath as PartialKeyPath<Root>) {
            // A stored property at a fixed offset, as a field is: compared in place. Applying
            // the key path cost about 300 instructions per state (the standard library's
            // projection looks up generic metadata on each), twice per field on every commit.
            self.isEqual = { Self._isEqual($0, $1, at: offset, as: Value.self) }
        } else {
            self.isEqual = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
        }
    }

    /// Whether the values of type `Value` at byte `offset` of `a` and `b` are equal: the field
    /// whose key path `MemoryLayout<Root>.offset(of:)` gave `offset` (the access its
    /// documentation shows).
    @inlinable
    static func _isEqual<Value: Equatable>(_ a: Root, _ b: Root, at offset: Int, as _: Value.Type) -> Bool {
        withUnsafePointer(to: a) { a in
            withUnsafePointer(to: b) { b in
                (UnsafeRawPointer(a) + offset).assumingMemoryBound(to: Value.self).pointee
                    == (UnsafeRawPointer(b) + offset).assumingMemoryBound(to: Value.self).pointee
            }
        }
    }
}
