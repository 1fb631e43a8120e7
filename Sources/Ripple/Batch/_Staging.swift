/// A thread's staged batch: the writes an outermost ``batch(_:)`` made, not yet applied to the
/// shared graph, and the batch's private view of the computed values they affect.
///
/// Writes inside a batch (on a thread that is not delivering reactions) are recorded here
/// instead of being applied; when the outermost batch ends, `commit` applies them all under
/// one acquisition of the graph's lock, so a reader on another thread sees none or all of
/// them, and no derivation ever runs on a mix.
///
/// The batching thread reads its own writes: a staged ``Stored`` reads as its staged value,
/// and a ``Computed`` that (transitively, through the sources it recorded) reads a staged
/// value is evaluated *privately*: its derivation runs with reads redirected to the batch's
/// view, without caching into the shared node or tracking. Private values are memoized until
/// the next staged write or the next change committed by anyone (`epoch`).
///
/// Only its own thread touches it; the fields of the graph and nodes it changes
/// (`Stored._stagedCount`, `_Graph.stagingThreads`) are guarded by the graph's lock. Nothing
/// that may hold user values is released while the lock is held: replaced values, entries and
/// stale memos are dropped after it is released.
final class _Staging {
    /// One entry per staged `Stored`, in the order of its first write in the batch.
    @exclusivity(unchecked) var entries: [_StagedWrite] = []
    /// Where each staged node's entry is in `entries`.
    @exclusivity(unchecked) var indexByNode: [ObjectIdentifier: Int] = [:]
    /// Bumped by every staged write: private values computed before it are out of date.
    @exclusivity(unchecked) var generation = 0
    /// Private values (and "not affected" marks) of computed nodes, valid for `memoGeneration`
    /// and the graph's `memoEpoch`. Each retains its node.
    @exclusivity(unchecked) var memo: [ObjectIdentifier: _PrivateResult] = [:]
    @exclusivity(unchecked) var memoGeneration = -1
    @exclusivity(unchecked) var memoEpoch = -1
    /// Out-of-date memos, dropped once the lock is released.
    @exclusivity(unchecked) var trash: [[ObjectIdentifier: _PrivateResult]] = []
    /// The computed node whose derivation runs privately on this thread, if any.
    @exclusivity(unchecked) var privateRef: Unmanaged<_Node>?

    init() {}

    /// Whether the batch has staged anything.
    @inline(__always)
    var isActive: Bool { !entries.isEmpty }

    /// The entry of `node`, if this thread staged it.
    @inline(__always)
    func entry(for node: _Node) -> _StagedWrite? {
        guard let index = indexByNode[ObjectIdentifier(node)] else { return nil }
        return entries[index]
    }

    /// Drops out-of-date memos (lock released).
    func emptyTrash() {
        if !trash.isEmpty { trash.removeAll() }
    }
}

/// A staged write: the node (retained, so a node released inside the batch still gets its
/// write) and, in the subclass, the latest value.
class _StagedWrite {
    let node: _Node
    /// Writes made in the batch, equal ones included (for `writeCount`).
    @exclusivity(unchecked) final var count = 1

    init(node: _Node) {
        self.node = node
    }

    /// Applies the write to the shared graph (lock held). The value replaced stays in the
    /// entry, released with it once the lock is released.
    func commit(_ context: Unmanaged<_ThreadContext>) {
        fatalError("Ripple internal error: _StagedWrite.commit")
    }
}

/// A staged write of a `Stored<Value>`.
final class _StagedValue<Value>: _StagedWrite {
    @exclusivity(unchecked) var value: Value

    init(node: Stored<Value>, value: Value) {
        self.value = value
        super.init(node: node)
    }

    override func commit(_ context: Unmanaged<_ThreadContext>) {
        unsafeDowncast(node, to: Stored<Value>.self)._commitStaged(&value, writes: count, context)
    }
}

/// The batch's view of one computed node: its private value, or `nil` when no staged write
/// reaches it (its shared value is the batch's view).
struct _PrivateResult {
    let node: _Node
    let value: Any?
}

/// A computed node whose derivation can run privately (see `_Staging`).
protocol _PrivatelyEvaluable: _Node {
    /// Runs the derivation and returns its result, without caching it.
    func _derivePrivately() -> Any
}

extension _ComputedNode: _PrivatelyEvaluable {
    func _derivePrivately() -> Any {
        derive()
    }
}

/// How a read on this thread sees the values: as committed, or as the thread's batch does.
enum _View {
    /// The shared graph: no staged writes on this thread, or a shared derivation is running.
    case committed
    /// Inside a private evaluation: the batch's view, no tracking.
    case privateEvaluation
    /// A top-level read (a batch's body, a reaction started inside it): the batch's view,
    /// tracked as usual.
    case batch
}

extension _ThreadContext {
    /// How a read made now sees the values (lock held).
    @inline(__always)
    func view(_ graph: _Graph) -> _View {
        guard let staging, staging.isActive else { return .committed }
        // A shared derivation (perhaps started by a private one) sees committed values, also
        // inside `untracked { }`.
        if graph.evaluatingRef != nil || suspendedEvaluationRef != nil { return .committed }
        return staging.privateRef == nil ? .batch : .privateEvaluation
    }

    /// The staging of this thread, created on first use.
    var stagingCreatingIfNeeded: _Staging {
        if let staging { return staging }
        let created = _Staging()
        staging = created
        return created
    }

    /// Applies the writes the outermost batch staged, under one acquisition of the lock, in
    /// the order of their first writes; reactions are only queued. Called with the lock
    /// released, once the batch's depth is back to zero.
    func commitStaged() {
        guard let staging, staging.isActive else { return }
        let entries = staging.entries
        staging.entries = []
        staging.indexByNode.removeAll(keepingCapacity: true)
        staging.generation &+= 1
        staging.trash.append(staging.memo)
        staging.memo = [:]
        let context = Unmanaged.passUnretained(self)
        _graphRef._withUnsafeGuaranteedRef { graph in
            graph.lock.lock()
            graph.stagingThreads -= 1
            for entry in entries { entry.commit(context) }
            graph.unlock()
        }
        // The entries, holding the replaced values and the nodes, are released here, unlocked.
        _ = entries
        staging.emptyTrash()
    }
}

extension _Staging {
    /// The batch's value of the computed `node` (lock held, `node` brought up to date in the
    /// shared graph): its shared value if no staged write reaches it through the sources it
    /// recorded, else its derivation's result in the batch's view. Memoized.
    ///
    /// The recorded sources are walked depth first with an explicit stack, and the affected
    /// nodes are evaluated bottom-up, so a long chain is evaluated without deep recursion
    /// (unless a private evaluation reads nodes its shared evaluation did not).
    func privateValue<Value>(of node: _ComputedNode<Value>, _ graph: _Graph, _ context: _ThreadContext) -> Value {
        if memoGeneration != generation || memoEpoch != graph.epoch {
            if !memo.isEmpty {
                trash.append(memo)
                memo = [:]
            }
            memoGeneration = generation
            memoEpoch = graph.epoch
        }
        if let known = memo[ObjectIdentifier(node)] {
            if let value = known.value { return value as! Value }
            return node.cached.unsafelyUnwrapped
        }
        visit(node, graph, context)
        if let value = memo[ObjectIdentifier(node)]?.value { return value as! Value }
        return node.cached.unsafelyUnwrapped
    }

    /// Walks the recorded sources of `root` (depth first, explicit stack), marks each computed
    /// node affected or not, and evaluates the affected ones privately, sources first.
    private func visit(_ root: _Node, _ graph: _Graph, _ context: _ThreadContext) {
        struct Frame {
            let node: _Node
            var index = 0
            var affected = false
        }
        var stack = [Frame(node: root)]
        while let top = stack.last {
            let node = top.node
            if top.index < node.sources.count {
                let dep = node.sources[top.index].node
                stack[stack.count - 1].index += 1
                switch dep.kind {
                case .stored:
                    if indexByNode[ObjectIdentifier(dep)] != nil { stack[stack.count - 1].affected = true }
                case .computed:
                    if let known = memo[ObjectIdentifier(dep)] {
                        if known.value != nil { stack[stack.count - 1].affected = true }
                    } else {
                        if dep.isEvaluating { graph.failCycle(at: dep) }
                        if !graph.isFresh(dep) { graph.refresh(dep) }
                        stack.append(Frame(node: dep))
                    }
                case .reaction, .watcher:
                    break
                }
                continue
            }
            stack.removeLast()
            let value = top.affected ? evaluatePrivately(node, context) : nil
            memo[ObjectIdentifier(node)] = _PrivateResult(node: node, value: value)
            if top.affected, !stack.isEmpty { stack[stack.count - 1].affected = true }
        }
    }

    /// Runs `node`'s derivation in the batch's view (lock held): reads see staged values and
    /// private values, nothing is tracked, and the node counts as evaluating (so a cycle is
    /// caught and a write is refused).
    private func evaluatePrivately(_ node: _Node, _ context: _ThreadContext) -> Any {
        node.isEvaluating = true
        let savedPrivate = privateRef
        privateRef = Unmanaged.passUnretained(node)
        // Reads that reach the plain (untracked) path record nothing.
        context.untrackedDepth += 1
        let value = (node as! any _PrivatelyEvaluable)._derivePrivately()
        context.untrackedDepth -= 1
        privateRef = savedPrivate
        node.isEvaluating = false
        return value
    }
}

extension _Node {
    /// Whether some thread is inside a batch with staged writes (lock held).
    @inlinable
    final var _isAnyThreadStaging: Bool {
        graphRef._withUnsafeGuaranteedRef { $0.stagingThreads != 0 }
    }
}
