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
        self.isEqual = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}
