import _RippleRef

/// Internal: what every computed node has whatever its value's type: its evaluation, reached
/// from the graph's non-generic code. (Reactions and watchers are run, never evaluated, so they
/// do not carry it.)
@usableFromInline
class _ComputedNodeBase: _DerivedNode {
    /// Re-runs the derivation and says whether the value changed: compiled for the concrete
    /// type in the client by the `Equatable` initializers, else built by `_ComputedNode` around
    /// its equality, else the generic `_evaluate()`. Kept in this non-generic class so reaching
    /// it needs no generic metadata; a non-optional `let` taking the node as its argument, so
    /// that calling it retains nothing.
    @usableFromInline final let specializedEvaluate: (_Node) -> Bool
    /// Where the value was created, or its name (after the fields above: see `_Node.origin`).
    private let storedOrigin: _OriginStorage

    init(origin: _Origin, specializedEvaluate: @escaping (_Node) -> Bool) {
        self.specializedEvaluate = specializedEvaluate
        storedOrigin = _OriginStorage(origin)
        super.init(kind: .computed)
    }

    override final func _origin() -> _Origin { storedOrigin.origin }

    /// Re-runs the derivation of a computed value that has no equality; returns whether its
    /// value changed (always). `_ComputedNode` overrides it.
    func _evaluate() -> Bool {
        _rippleFailure("internal error: \(debugLabel) has no evaluation")
    }
}

/// The graph node behind a ``Computed``: the cached value and the derivation.
///
/// The public ``Computed`` is a handle that owns this node; the graph may keep the node
/// alive a little longer (while live readers need it), but never the handle.
///
/// Not `final` for one subclass, `_ComparingComputedNode`, which keeps an equality of its own
/// and overrides nothing: every member here is `final`, so calls stay direct.
@usableFromInline
class _ComputedNode<Value>: _CachingNode<Value> {
    @usableFromInline final let derive: () -> Value

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
            super.init(origin: origin, specializedEvaluate: specializedEvaluate)
        } else if let isEqual {
            super.init(
                origin: origin,
                specializedEvaluate: { node in
                    let node = _downcast(node, to: _ComputedNode<Value>.self)
                    let newValue = node.derive()
                    if let old = node.cached, isEqual(old, newValue) { return false }
                    node._replaceCached(newValue)
                    return true
                })
        } else {
            // No equality: the default evaluation, which calls `_evaluate()` and captures
            // nothing (a closure written here would capture `Value`, a context per node).
            super.init(
                origin: origin, specializedEvaluate: { _downcast($0, to: _ComputedNodeBase.self)._evaluate() })
        }
    }

    override final func _traceValue(_ held: borrowing _HeldLock) -> Any? { cached }

    /// Evaluates a computed value that has no equality: every evaluation is a change.
    override final func _evaluate() -> Bool {
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
        if let replaced { graphRef.with { $0.keepUntilUnlock(replaced) } }
    }
}

/// The node of a computed value created with an equality of its own (`Computed(equals:)`):
/// keeps that equality, so that a reaction that read the value's private result in a batch's
/// view compares it with the committed one (see `_Graph+PrivateReads.swift`). Only these nodes
/// pay for it; the `Equatable` ones compare with `==`.
final class _ComparingComputedNode<Value>: _ComputedNode<Value> {
    /// The value's cut-off equality, (old, new).
    let isEqual: (Value, Value) -> Bool

    init(
        origin: _Origin,
        isEqual: @escaping (Value, Value) -> Bool,
        derive: @escaping () -> Value,
        specializedEvaluate: ((_Node) -> Bool)? = nil
    ) {
        self.isEqual = isEqual
        super.init(origin: origin, isEqual: isEqual, derive: derive, specializedEvaluate: specializedEvaluate)
        hasOwnEquality = true
    }
}
