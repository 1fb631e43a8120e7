import _RippleRef

/// Builders for the derivations of ``MainActorComputed`` and of the weak-owner forms
/// (`Computed(owner:)`, `MainActorComputed(owner:)`): the graph calls them like any other,
/// under its lock, on the thread that reads.
@usableFromInline
enum _Derivation {
    /// `derive`, callable by the graph, checked to run on the main thread only (lock held
    /// when it runs): a main-actor derivation reached from another thread stops the program
    /// with a message naming the computed value, instead of racing with the main actor.
    @usableFromInline
    static func onMainActor<Value>(_ derive: @escaping @MainActor () -> Value, origin: _Origin) -> () -> Value {
        // The check below stands for the isolation the conversion drops.
        let run = _assumingMainActor(derive)
        return {
            if !_graph.isOnMainThread() { failOffMainActor(origin) }
            return run()
        }
    }

    /// An equality of main-actor values, callable by the graph: it only runs inside a
    /// derivation built by ``onMainActor(_:origin:)``, so on the main thread.
    static func onMainActor<Value>(_ isEqual: (@MainActor (Value, Value) -> Bool)?) -> ((Value, Value) -> Bool)? {
        isEqual.map { _assumingMainActor($0) }
    }

    /// Stops the program: a main-actor derivation was about to run on another thread.
    static func failOffMainActor(_ origin: _Origin) -> Never {
        _rippleFailure(
            "MainActorComputed \(origin) was evaluated off the main actor. It derives its value on the main actor only: read it from main-actor code (another MainActorComputed, observeOnMainActor), not from a Computed or an observe { } that reaches it through MainActor.assumeIsolated on another thread."
        )
    }
}

/// The derivation of a computed value that holds its owner weakly (`Computed(owner:)`,
/// `MainActorComputed(owner:)`).
///
/// While the owner lives, each evaluation passes it to `derive`. Once it is gone, an
/// evaluation keeps the last value and reads nothing, so the computed value no longer depends
/// on anything and never changes again.
final class _OwnedDerivation<Owner: AnyObject, Value> {
    private weak var owner: Owner?
    private let derive: (Owner) -> Value
    private let isEqual: ((Value, Value) -> Bool)?
    private let origin: _Origin
    /// Whether `derive` is isolated to the main actor (checked on every evaluation).
    private let isOnMainActor: Bool
    /// The node that runs this derivation, which owns it: alive whenever the derivation runs.
    private unowned var node: _ComputedNode<Value>?

    private init(
        owner: Owner, derive: @escaping (Owner) -> Value, isEqual: ((Value, Value) -> Bool)?, origin: _Origin,
        isOnMainActor: Bool
    ) {
        self.owner = owner
        self.derive = derive
        self.isEqual = isEqual
        self.origin = origin
        self.isOnMainActor = isOnMainActor
    }

    /// A node deriving its value from `owner`, held weakly, on any thread.
    static func node(
        owner: Owner,
        isEqual: ((Value, Value) -> Bool)?,
        origin: _Origin,
        _ derive: @escaping (Owner) -> Value
    ) -> _ComputedNode<Value> {
        _OwnedDerivation(owner: owner, derive: derive, isEqual: isEqual, origin: origin, isOnMainActor: false)
            .makeNode()
    }

    /// A node deriving its value from `owner`, held weakly, on the main actor only.
    static func mainActorNode(
        owner: Owner,
        isEqual: (@MainActor (Value, Value) -> Bool)?,
        origin: _Origin,
        _ derive: @escaping @MainActor (Owner) -> Value
    ) -> _ComputedNode<Value> {
        // `liveOwner()` checks the thread before every call.
        let run = _assumingMainActor(derive)
        return _OwnedDerivation(
            owner: owner, derive: run, isEqual: _Derivation.onMainActor(isEqual), origin: origin, isOnMainActor: true
        ).makeNode()
    }

    private func makeNode() -> _ComputedNode<Value> {
        let derive: () -> Value = { [self] in privateValue() }
        let evaluation: (_Node) -> Bool = { [self] node in evaluate(_downcast(node, to: _ComputedNode<Value>.self))
        }
        // With an equality, a node that keeps it (see `_ComparingComputedNode`).
        let node: _ComputedNode<Value>
        if let isEqual {
            node = _ComparingComputedNode<Value>(
                origin: origin, isEqual: isEqual, derive: derive, specializedEvaluate: evaluation)
        } else {
            node = _ComputedNode<Value>(origin: origin, isEqual: nil, derive: derive, specializedEvaluate: evaluation)
        }
        self.node = node
        return node
    }

    /// The owner, if it is still alive (lock held). The strong reference taken here is handed
    /// to the graph, released once the lock is: if the owner's other owners let go meanwhile,
    /// its deinitializer must not run under the lock.
    private func liveOwner() -> Owner? {
        if isOnMainActor, !_graph.isOnMainThread() { _Derivation.failOffMainActor(origin) }
        guard let owner else { return nil }
        _graph.keepUntilUnlock(owner)
        return owner
    }

    /// A shared evaluation (lock held): whether the value changed.
    private func evaluate(_ node: _ComputedNode<Value>) -> Bool {
        guard let owner = liveOwner() else {
            if node.cached == nil { failNoValue() }
            return false
        }
        let newValue = derive(owner)
        if let isEqual, let old = node.cached, isEqual(old, newValue) { return false }
        node.cached = newValue
        return true
    }

    /// A private evaluation, in a batch's view (lock held; the node has a shared value).
    private func privateValue() -> Value {
        if let owner = liveOwner() { return derive(owner) }
        guard let cached = node?.cached else { failNoValue() }
        return cached
    }

    private func failNoValue() -> Never {
        _rippleFailure(
            "\(isOnMainActor ? "MainActorComputed" : "Computed") \(origin) was read for the first time after its owner was released, so it has no last value to keep. Read a value derived from a weakly held owner while the owner is alive."
        )
    }
}
