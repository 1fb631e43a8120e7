/// One committed state of a store, as its graph node holds it.
struct _Snapshot<State: Sendable>: Sendable {
    let state: State
    /// 0 for the initial state, one more per commit that changed something.
    let version: UInt64
    let transaction: Transaction
}

/// A key path the store keeps in `@Sendable` closures. Key paths are immutable values; the
/// ones a store receives are `Sendable` at the call site, this only carries that across the
/// appending a scoped dispatcher does.
struct _KeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: KeyPath<Root, Value>
}

/// A reaction's own value, touched only by the reaction's runs (which never overlap).
final class _ReactionBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A snapshot as traces show it: its state.
extension _Snapshot: CustomStringConvertible {
    var description: String { String(describing: state) }
}
