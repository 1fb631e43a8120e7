/// The graph node behind a ``Computed``: the cached value and the derivation.
///
/// The public ``Computed`` is a handle that owns this node; the graph may keep the node
/// alive a little longer (while live readers need it), but never the handle.
@usableFromInline
final class _ComputedNode<Value>: _DerivedNode {
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    @usableFromInline let derive: () -> Value
    let isEqual: ((Value, Value) -> Bool)?

    @usableFromInline
    init(
        origin: _Origin,
        isEqual: ((Value, Value) -> Bool)?,
        derive: @escaping () -> Value,
        specializedEvaluate: ((_Node) -> Bool)? = nil
    ) {
        self.derive = derive
        self.isEqual = isEqual
        if let specializedEvaluate {
            super.init(kind: .computed, origin: origin, specializedEvaluate: specializedEvaluate)
        } else {
            super.init(kind: .computed, origin: origin)
        }
    }

    override func _traceValue() -> Any? { cached }

    override func _evaluate() -> Bool {
        let newValue = derive()
        if let isEqual, let old = cached, isEqual(old, newValue) { return false }
        _replaceCached(newValue)
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
