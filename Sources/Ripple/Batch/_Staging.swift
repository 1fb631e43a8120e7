import _RippleRef

/// A thread's staged batch: the writes an outermost ``batch(_:)`` made, not yet applied to the
/// shared graph, and the batch's private view of the computed values they affect.
///
/// Writes inside a batch (on a thread that is not delivering reactions) are recorded here
/// instead of being applied; when the outermost batch ends, `commitStaged` applies them all
/// under one acquisition of the graph's lock, so a reader on another thread sees none or all
/// of them, and no derivation ever runs on a mix.
///
/// A staged value is kept in its ``Stored`` (`_extras._stagedValue`, owned by one staging at a time:
/// no allocation); when two threads' batches write the same value at once, the second keeps
/// its value in an `_StagedWrite` entry (`overflow`).
///
/// The batching thread reads its own writes: a staged ``Stored`` reads as its staged value,
/// and a ``Computed`` that (transitively, through the sources it recorded) reads a staged
/// value is evaluated *privately*: its derivation runs with reads redirected to the batch's
/// view, without caching into the shared node or tracking. Private values are memoized until
/// the next staged write or the next change committed by anyone (`epoch`).
///
/// Only its own thread touches it; the fields of the graph and nodes it changes
/// (`Stored._stagedCount` and the staged value, `_Graph.stagingThreads`) are guarded by the
/// graph's lock. Nothing that may hold user values is released while the lock is held:
/// replaced values, nodes and stale memos are dropped after it is released.
@usableFromInline
final class _Staging {
    /// The staged nodes, in the order of their first write in the batch: the first `count`
    /// entries of `slots` (the rest are spent entries, overwritten by later batches, so that
    /// a batch costs no array growth or clean-up).
    @exclusivity(unchecked) private var slots: [_StagedEntry] = []
    @exclusivity(unchecked) private(set) var count = 0
    /// Where each staged node is in `slots`, once there are more than `linearSearchLimit` of
    /// them (fewer are searched in order: cheaper than hashing).
    @exclusivity(unchecked) private var indexByNode: [ObjectIdentifier: Int] = [:]
    private static var linearSearchLimit: Int { 8 }
    /// Staged values of nodes whose own slot another thread's batch holds.
    @exclusivity(unchecked) var overflow: [ObjectIdentifier: _StagedWrite] = [:]
    /// Values replaced by the commit, released once the lock is released.
    @exclusivity(unchecked) private var replaced: [Any] = []
    /// Bumped by every staged write: private values computed before it are out of date.
    @exclusivity(unchecked) var generation = 0
    /// Private values (and "not affected" marks) of computed nodes, valid for `memoGeneration`
    /// and the graph's `memoEpoch`. Each retains its node.
    @exclusivity(unchecked) var memo: [ObjectIdentifier: _PrivateResult] = [:]
    @exclusivity(unchecked) var memoGeneration = -1
    @exclusivity(unchecked) var memoEpoch = -1
    /// Out-of-date memos, dropped once the lock is released.
    @exclusivity(unchecked) var trash: [[ObjectIdentifier: _PrivateResult]] = []
    /// The changes the reaction run in progress on this thread holds: it reads what they wrote
    /// as it was before them (see `_RunSnapshots`). Appended to by the thread that applies a
    /// change, under the lock.
    @exclusivity(unchecked) var heldChanges: [Int] = []
    /// The reaction whose run is in progress on this thread (its innermost), if any.
    @exclusivity(unchecked) var runReaction: ObjectIdentifier?
    /// The runs the current one nests in (a reaction created by a run runs its first run at
    /// once), innermost last, with the changes they hold.
    @exclusivity(unchecked) var suspendedRuns: [_SuspendedRun] = []
    /// The graph's list of the threads with a run in progress (see `_RunSnapshots`).
    @exclusivity(unchecked) var nextRunning: _Ref<_Staging>?
    @exclusivity(unchecked) var previousRunning: _Ref<_Staging>?

    init() {}

    /// Whether the batch has staged anything.
    @inline(__always)
    var isActive: Bool { count != 0 }

    /// Whether this batch staged `node`.
    func isStaged(_ node: _Node) -> Bool {
        if count <= Self.linearSearchLimit {
            let target = _Ref(node).address
            for index in 0..<count where slots[index].node.address == target { return true }
            return false
        }
        return indexByNode[ObjectIdentifier(node)] != nil
    }

    /// Records the first staged write of `node` (retained until the batch is applied) and how
    /// to apply it.
    func append(_ node: _Node, commit: @escaping _StagedEntry.Commit) {
        let entry = _StagedEntry(node: .init(retaining: node), commit: commit)
        if count < slots.count {
            slots[count] = entry
        } else {
            slots.append(entry)
        }
        count += 1
        if count > Self.linearSearchLimit {
            if count == Self.linearSearchLimit + 1 {
                for index in 0..<count {
                    indexByNode[ObjectIdentifier(slots[index].node.object)] = index
                }
            } else {
                indexByNode[ObjectIdentifier(node)] = count - 1
            }
        }
    }

    /// Applies every staged write, in order, and forgets them: the batch is left
    /// with none, and its memo out of date. Call `releaseApplied` once the lock is released.
    func commitAll(_ context: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        // Reaction runs in progress on other threads read the batch's values as they were
        // before it (see `_RunSnapshots`).
        let graph = _existingGraphRef
        graph.with { $0.beginBatchApply(held) }
        for index in 0..<count {
            let entry = slots[index]
            entry.node.with { entry.commit($0, self, context, held) }
        }
        graph.with { $0.endBatchApply(held) }
        appliedCount = count
        count = 0
        if !indexByNode.isEmpty { indexByNode.removeAll(keepingCapacity: true) }
        generation &+= 1
        if !memo.isEmpty {
            trash.append(memo)
            memo = [:]
        }
    }

    /// Entries applied by `commitAll` whose nodes are still to be released.
    @exclusivity(unchecked) private var appliedCount = 0

    /// Whether `commitAll` left nodes to release.
    var hasApplied: Bool { appliedCount != 0 }

    /// A staged value that another thread holds for a read-modify-write.
    func firstHeldByAnotherThread(_ context: _ThreadContext, _ held: borrowing _HeldLock) -> (
        any _ReadModifyWriteSubject
    )? {
        let me = _Ref(context)
        for index in 0..<count {
            let node = slots[index].node.object
            if let subject = node as? any _ReadModifyWriteSubject, let owner = subject._exclusiveOwner(held),
                owner != me
            {
                return subject
            }
        }
        return nil
    }

    /// Releases the applied nodes and the values the commit replaced (lock released).
    ///
    /// A release may run a deinitializer that makes a batch on this thread, which stages into
    /// and commits through this very object. So nothing is released from where that batch
    /// could reach it: the nodes are taken out of `slots` before the first release, and the
    /// replaced values and memos are moved out of their arrays first.
    func releaseApplied() {
        let applied = appliedCount
        appliedCount = 0
        if applied == 1 {
            slots[0].node.release()
        } else if applied > 1 {
            let nodes = slots[0..<applied].map(\.node)
            for node in nodes { node.release() }
        }
        if !replaced.isEmpty {
            var values: [Any] = []
            swap(&values, &replaced)
            values.removeAll(keepingCapacity: true)
            // Keep the storage for the next commit, unless a nested batch started another.
            if replaced.isEmpty { swap(&values, &replaced) }
        }
        emptyTrash()
    }

    /// Keeps a value the commit replaced, to be released once the lock is released.
    @usableFromInline
    func keepForRelease(_ value: Any) {
        replaced.append(value)
    }

    /// Drops out-of-date memos (lock released).
    func emptyTrash() {
        // Moved out first, like `releaseApplied`'s values: a memo's node may be the last
        // reference to a value whose deinitializer makes a batch.
        guard !trash.isEmpty else { return }
        var memos: [[ObjectIdentifier: _PrivateResult]] = []
        swap(&memos, &trash)
        memos.removeAll()
    }
}

/// A staged node (retained by hand) and how to apply its staged write: a function compiled for
/// the concrete value type where the write was made (the batching thread's commit calls it
/// with the lock held).
@usableFromInline
struct _StagedEntry {
    @usableFromInline
    typealias Commit = (_Node, _Staging, _Ref<_ThreadContext>, borrowing _HeldLock) -> Void

    let node: _Ref<_Node>
    let commit: Commit
}

/// The staged write of a value whose own slot another thread's batch holds (rare: two
/// batches writing one value at once).
final class _StagedWrite {
    /// The latest value, as `Value` of the `Stored`.
    @exclusivity(unchecked) var value: Any
    /// Writes made in the batch, equal ones included (for `writeCount`).
    @exclusivity(unchecked) var count = 1
    /// Reactions' reads of the staged value, in the batch's view (see `_StagedRead`).
    @exclusivity(unchecked) var read = _StagedRead()

    init(value: Any) {
        self.value = value
    }
}

/// What reactions read of one staged value in the batch's view, so that applying it neither
/// runs them again for what they saw nor leaves them with a value that was never committed.
///
/// A reaction started inside a batch runs there, in the batch's view: a ``Stored`` the batch
/// wrote reads as its staged value. Its edge to the value must record the version that
/// value gets when the batch is applied; the version it had before the batch would make the
/// apply run the reaction again, with the value it saw already. Versions are the graph's
/// unique identifiers (`_Graph.makeID`), so the first such read reserves one (`version`) and
/// the apply gives it to the value. A later write in the batch replaces the value those reads
/// saw: the reservation is dropped (the apply takes a new version, and they run again), and
/// `superseded` makes an apply that commits nothing (a value equal to the committed one) mark
/// the value's readers anyway, so that they run again and see the committed value rather than
/// keep one the batch never committed (see `Stored._markReadersOfReplacedStagedValue`).
///
/// Lock held to touch.
@usableFromInline
struct _StagedRead {
    /// The version reserved for the staged value by a reaction's read of it; 0 when none.
    @usableFromInline var version = 0
    /// A reaction read a value this batch staged and then replaced.
    @usableFromInline var superseded = false
    /// A private evaluation read the staged value (for a computed value a reaction may have
    /// read in the batch's view, whose edge to it then holds `_Graph.privateReadVersion`).
    @usableFromInline var readPrivately = false
    /// The version reserved for the value's write counter (``Stored/writeCount``) once the
    /// staged writes are counted, by a reaction's read of the count in the batch's view; 0
    /// when none. Dropped by the next staged write: a reaction that read the count before it
    /// saw a count the counter never has, and runs again.
    @usableFromInline var countVersion = 0

    @usableFromInline
    init() {}

    /// A write replaced the staged value.
    mutating func replace() {
        countVersion = 0
        guard version != 0 || readPrivately else { return }
        version = 0
        readPrivately = false
        superseded = true
    }

    /// The version the staged value gets when applied, reserved now if no read reserved one.
    mutating func reserve(in graph: _Graph, _ held: borrowing _HeldLock) -> Int {
        if version == 0 { version = graph.makeID(held) }
        return version
    }

    /// The version the write counter gets when the staged writes are counted, reserved now if
    /// no read reserved one.
    mutating func reserveCount(in graph: _Graph, _ held: borrowing _HeldLock) -> Int {
        if countVersion == 0 { countVersion = graph.makeID(held) }
        return countVersion
    }
}

extension _Staging {
    /// Whether `node`'s value in the batch's view, as `privateValue` last found it, is a private
    /// one.
    func hasPrivateValue(of node: _Node, _ held: borrowing _HeldLock) -> Bool {
        memo[ObjectIdentifier(node)]?.value != nil
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
    /// How a read made now sees the values.
    @inline(__always)
    func view(_ graph: _Graph, _ held: borrowing _HeldLock) -> _View {
        // A reaction's run that holds another thread's change reads what it wrote as before it.
        guard staging.isActive || (!staging.heldChanges.isEmpty && !graph.state(held).snapshots.history.isEmpty) else {
            return .committed
        }
        // A shared derivation (perhaps started by a private one) sees committed values, also
        // inside `untracked { }`.
        if graph.state(held).evaluatingRef != nil || graph.state(held).suspendedEvaluatingRef != nil {
            return .committed
        }
        return privateEvaluationRef == nil ? .batch : .privateEvaluation
    }

    /// Applies the writes the outermost batch staged, under one acquisition of the lock, in
    /// the order of their first writes; reactions are only queued. Called with the lock
    /// released, once the batch's depth is back to zero.
    ///
    /// - Parameter runningJobs: Whether to go on, under the same acquisition of the lock, to
    ///   run the jobs the commit queued (the reactions its writes triggered), as delivery would
    ///   next: true for a batch that ends outside any delivery, whose caller delivers the rest.
    ///   The lock pair this saves is a sizeable part of a batched write that triggers reactions.
    @inline(never)
    func commitStaged(runningJobs: Bool = false) {
        guard staging.isActive || soleWrite.isPending || !reservations.isEmpty else { return }
        let context = _Ref(self)
        // The values this batch read-modify-wrote, taken out of `reservations` when they are
        // released to other writers: a deinitializer run by the releases below may make a batch
        // on this thread, whose commit must not end them again.
        var ended: [any _ReadModifyWriteSubject] = []
        // Something was staged or reserved: a node exists, and with it the graph.
        _existingGraphRef.with { graph in
            // Never inlined and synchronous: the thread's identity may be read in place.
            let held = graph.takeLock(as: _Lock.threadOfNonInlinedSynchronousCaller)
            if soleWrite.isPending {
                // A tracer shows the batch as staged; a value held for a read-modify-write
                // must be waited for. Otherwise the write is applied as it is (see `_SoleWrite`).
                if graph.tracingCount != 0 || graph.state(held).exclusiveOwners != 0 {
                    graph.stageSoleWrite(self, held)
                } else {
                    // One change with the batch's other writes, if any (the write counter's).
                    graph.beginBatchApply(held)
                    graph.applySoleWrite(self, held)
                    graph.endBatchApply(held)
                }
            }
            if staging.isActive {
                // A value another thread holds for a read-modify-write is applied after it.
                if graph.state(held).exclusiveOwners != 0 {
                    while let subject = staging.firstHeldByAnotherThread(self, held) {
                        subject._waitForExclusiveAccess(self, held)
                    }
                }
                graph.stagingThreads -= 1
                staging.commitAll(context, held)
                if graph.isTracing { graph.recordTrace(.batchEnd, self, held) }
            }
            // The values this batch read-modify-wrote are released to other writers only now,
            // once its writes are applied.
            if !reservations.isEmpty {
                for reserved in reservations { reserved._endExclusive(held) }
                swap(&ended, &reservations)
            }
            if runningJobs {
                graph.unlockRunningQueuedJobs(self, held)
            } else {
                held.release(graph)
            }
        }
        // The nodes and the values the commit replaced are released here, unlocked.
        if soleWrite.isApplied { finishSoleWrite() }
        if staging.isActive || staging.hasApplied { staging.releaseApplied() }
        if !ended.isEmpty {
            ended.removeAll(keepingCapacity: true)
            // Keep the storage for the next batch, unless a nested one reserved meanwhile.
            if reservations.isEmpty { swap(&ended, &reservations) }
        }
    }
}

extension _Staging {
    /// The batch's value of the computed `node` (`node` brought up to date in the
    /// shared graph): its shared value if no staged write reaches it through the sources it
    /// recorded, else its derivation's result in the batch's view. Memoized.
    ///
    /// The recorded sources are walked depth first with an explicit stack, and the affected
    /// nodes are evaluated bottom-up, so a long chain is evaluated without deep recursion
    /// (unless a private evaluation reads nodes its shared evaluation did not).
    func privateValue<Value>(
        of node: _ComputedNode<Value>, _ graph: _Graph, _ context: _ThreadContext, _ held: borrowing _HeldLock
    ) -> Value {
        if memoGeneration != generation || memoEpoch != graph.state(held).epoch {
            if !memo.isEmpty {
                trash.append(memo)
                memo = [:]
            }
            memoGeneration = generation
            memoEpoch = graph.state(held).epoch
        }
        if let known = memo[ObjectIdentifier(node)] {
            if let value = known.value { return value as! Value }
            return node.current
        }
        visit(node, graph, context, held)
        if let value = memo[ObjectIdentifier(node)]?.value { return value as! Value }
        return node.current
    }

    /// Walks the recorded sources of `root` (depth first, explicit stack), marks each computed
    /// node affected or not, and evaluates the affected ones privately, sources first.
    private func visit(_ root: _DerivedNode, _ graph: _Graph, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        struct Frame {
            let node: _DerivedNode
            var index = 0
            var affected = false
        }
        var stack = [Frame(node: root)]
        while let top = stack.last {
            let node = top.node
            if top.index < held[sources: node].count {
                let dep = held[sources: node][top.index].node
                stack[stack.count - 1].index += 1
                switch dep.kind {
                case .stored:
                    if isStaged(dep) || readsKeptValue(of: dep, graph, held) { stack[stack.count - 1].affected = true }
                case .computed:
                    let dep = _downcast(dep, to: _DerivedNode.self)
                    if let known = memo[ObjectIdentifier(dep)] {
                        if known.value != nil { stack[stack.count - 1].affected = true }
                    } else {
                        if held[isEvaluating: dep] { graph.failCycle(at: dep, held) }
                        if !graph.isFresh(dep, held) { graph.refresh(dep, held) }
                        stack.append(Frame(node: dep))
                    }
                case .reaction, .watcher:
                    break
                }
                continue
            }
            stack.removeLast()
            let value = top.affected ? evaluatePrivately(node, context, held) : nil
            memo[ObjectIdentifier(node)] = _PrivateResult(node: node, value: value)
            if top.affected, !stack.isEmpty { stack[stack.count - 1].affected = true }
        }
    }

    /// Runs `node`'s derivation in the batch's view: reads see staged values and
    /// private values, nothing is tracked, and the node counts as evaluating (so a cycle is
    /// caught and a write is refused).
    private func evaluatePrivately(_ node: _DerivedNode, _ context: _ThreadContext, _ held: borrowing _HeldLock) -> Any
    {
        held[isEvaluating: node] = true
        let savedPrivate = context.privateEvaluationRef
        context.privateEvaluationRef = _Ref(node)
        // Reads that reach the plain (untracked) path record nothing.
        context.untrackedDepth += 1
        let value = (node as! any _PrivatelyEvaluable)._derivePrivately()
        context.untrackedDepth -= 1
        context.privateEvaluationRef = savedPrivate
        held[isEvaluating: node] = false
        return value
    }
}

extension _Node {
    /// Whether some thread is inside a batch with staged writes (lock held).
    @inlinable
    final var _isAnyThreadStaging: Bool {
        graphRef.with { $0.stagingThreads != 0 }
    }
}
