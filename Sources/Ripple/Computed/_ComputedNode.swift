/// The graph node behind a ``Computed``: the cached value and the derivation.
///
/// The public ``Computed`` is a handle that owns this node; the graph may keep the node
/// alive a little longer (while live readers need it), but never the handle.
@usableFromInline
final class _ComputedNode<Value>: _Node {
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    let derive: () -> Value
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

    override func _evaluate() -> Bool {
        let newValue = derive()
        if let isEqual, let old = cached, isEqual(old, newValue) { return false }
        cached = newValue
        return true
    }
}
