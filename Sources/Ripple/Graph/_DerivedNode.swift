/// Internal: a node that reads others: a computed value, a reaction or an Observation watcher.
///
/// Adds to `_Node` what reading needs: the sources of the last evaluation (each edge holding
/// its source strongly, with the version seen), and the state of an evaluation in progress.
/// Every field is guarded by the graph's lock.
@usableFromInline
class _DerivedNode: _Node {
    /// The graph epoch at which this node was last known up to date.
    @exclusivity(unchecked) final var verifiedEpoch = -1
    /// What this node read in its last evaluation, with the version it saw.
    @exclusivity(unchecked) final var sources = _Buffer<_Edge>()
    /// The id of the evaluation in progress (0 when idle).
    @exclusivity(unchecked) final var evaluationID = 0
    /// Edges of the evaluation in progress (prefix of `sources`).
    @exclusivity(unchecked) final var trackCount = 0
    /// Replaced sources of a live node, unsubscribed when its evaluation ends.
    @exclusivity(unchecked) final var replacedSources = _Buffer<_Edge>()
    /// Re-runs a computed value's derivation and says whether its value changed: compiled for
    /// the concrete type in the client by the `Equatable` initializers, else built by
    /// `_ComputedNode` around its equality, else the generic `_evaluate()`. Kept in this non-generic class so reaching it needs no generic metadata;
    /// a non-optional `let` taking the node as its argument, so that calling it retains nothing.
    @usableFromInline final let specializedEvaluate: (_Node) -> Bool
    /// Where the node was created, or its name (after the fields above: see `_Node.origin`).
    private let storedOrigin: _OriginStorage

    init(kind: Kind, origin: _Origin, specializedEvaluate: @escaping (_Node) -> Bool = { unsafeDowncast($0, to: _DerivedNode.self)._evaluate() }) {
        self.specializedEvaluate = specializedEvaluate
        storedOrigin = _OriginStorage(origin)
        super.init(kind: kind)
    }

    override final func _origin() -> _Origin { storedOrigin.origin }

    deinit {
        if hasExternalSource { graphRef.takeUnretainedValue().dropExternalSource(of: self) }
        // Hand the sources to the release queue instead of releasing them here: a chain of
        // any length is then freed one node at a time, without deep recursion.
        guard !sources.isEmpty else { return }
        _releaseLater(sources.take())
    }

    /// Re-runs a computed value's derivation; returns whether its value changed. Reactions and
    /// watchers are run, never evaluated: reaching this for them is an internal error.
    func _evaluate() -> Bool {
        _rippleFailure("internal error: \(kindName) \(origin) was evaluated like a computed value")
    }
}
