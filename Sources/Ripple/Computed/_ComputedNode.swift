/// The graph node behind a ``Computed``: the cached value and the derivation.
///
/// The public ``Computed`` is a handle that owns this node; the graph may keep the node
/// alive a little longer (while live readers need it), but never the handle.
@usableFromInline
final class _ComputedNode<Value>: _DerivedNode {
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    @usableFromInline let derive: () -> Value

    /// Creates the node of a computed value. Its evaluation is `specializedEvaluate` when given
    /// (compiled for the concrete type by the `Equatable` initializers), else one built here
    /// around `isEqual`: the node keeps no equality of its own.
    @usableFromInline
    init(
        origin: _Origin,
        isEqual: ((Value, Value) -> Bool)?,
        derive: @escaping () -> Value,
        specializedEvaluate: ((_Node) -> Bool)? = nil
    ) {
        self.derive = derive
        if let specializedEvaluate {
            super.init(kind: .computed, origin: origin, specializedEvaluate: specializedEvaluate)
        } else if let isEqual {
            super.init(kind: .computed, origin: origin, specializedEvaluate: { node in
                let node = unsafeDowncast(node, to: _ComputedNode<Value>.self)
                let newValue = node.derive()
                if let old = node.cached, isEqual(old, newValue) { return false }
                node._replaceCached(newValue)
                return true
            })
        } else {
            // No equality: the default evaluation, which calls `_evaluate()` and captures
            // nothing (a closure written here would capture `Value`, a context per node).
            super.init(kind: .computed, origin: origin)
        }
    }

    override func _traceValue() -> Any? { cached }

    /// Evaluates a computed value that has no equality: every evaluation is a change.
    override func _evaluate() -> Bool {
        _replaceCached(derive())
        return true
    }

    /// Stores a new value (lock held). The value it replaces is released once the lock is
    /// released, as its deinitializer is user code (values without references skip this).
    @inlinable
    final func _replaceCached(_ newValue: Value) {
        if _isPOD(Value.self) {
            cached = newValue
            return
        }
        var replaced = Optional(newValue)
        swap(&cached, &replaced)
        if let replaced { graphRef._withUnsafeGuaranteedRef { $0.keepUntilUnlock(replaced) } }
    }
}
