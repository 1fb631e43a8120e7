import _RippleRef

// A reaction's run never sees part of a change made on another thread: a batch, or a write.
//
// A run reads each value when its body reaches it, with the lock released between reads, so
// another thread can apply a change (a write, or a whole batch) between two of them. Without
// more, the run could read one value before that change and another after it: half a batch,
// or a value that changed under a computed value it read already.
//
// So the graph knows the reaction runs in progress (`runningHead`). A write applied while any
// is in progress keeps the value it replaces, with the version it had (`history`),
// tentatively. Once it has propagated, a walk downstream of what it wrote (through computed
// values already stale too, which stop the marking) finds the reactions that read something it
// changed; one whose run is in progress on another thread has read a value the change made
// out of date, so the run *holds* the change (`_Staging.heldChanges`): from then on it reads
// every value that change wrote as it was before it. A change that touched no run in progress
// keeps nothing: once it has propagated, what it kept is let go, and released with the lock
// on the writing thread, as without runs in progress. A change keeps its values exactly as
// long as the runs that hold it: the last one to end lets them go.
//
// A run that holds a change reads, for a stored value that change wrote, the kept value; a
// computed value whose sources such a change wrote is evaluated privately on the kept values,
// as a batch's view evaluates the values its staged writes reach (`_Staging.privateValue`):
// its view is the committed graph with the kept values in place of the newer ones. The change
// that a run holds marks its reaction (`touchRun`), which runs again once, with the newer
// values (its edges hold the versions it read).
//
// What a run can still see: a change that touched nothing it had read, made after a change it
// holds, is read as it is (the run had read nothing it makes out of date). To change several
// values together, change them in one batch: a run sees all of it or none.
//
// Cost. With no run in progress on another thread, a write checks one count, and a run links
// its thread into the list and out. With runs in progress, a write keeps what it replaces
// until it has propagated. While anything is kept, the nodes concerned count as staged
// (`_Node._stagedCount`) and the graph as staging (`stagingThreads`), so reads of them on every
// thread take the staged path.

/// The reaction runs in progress, on any thread, and the values kept for them (see above).
/// Guarded by the graph's lock.
struct _RunSnapshots {
    /// The batch states (`_Staging`) of the threads with a run in progress, linked through
    /// their `nextRunning` and `previousRunning`: each holds its thread's current run and the
    /// runs that one nests in. A list through the objects themselves, so that a run costs no
    /// array operation.
    var runningHead: _Ref<_Staging>?
    /// How many threads have a run in progress: while zero, a write keeps nothing.
    var runningThreads = 0
    /// For each stored node a change held by a run wrote, the values it had before those
    /// changes, oldest first. Each entry retains its node.
    var history: [ObjectIdentifier: _KeptValues] = [:]
    /// The nodes whose last kept value the change being applied added, to settle once it has
    /// propagated.
    var tentative: [ObjectIdentifier] = []
    /// Set while a batch's writes are applied (`_Staging.commitAll`, and a batch's sole write):
    /// they are one change, settled when the last is applied.
    var isApplyingBatch = false
    /// The identity of the change being applied: bumped when one is settled, so that no two
    /// changes that kept or touched anything share one.
    var change = 0
    /// For each change that runs in progress hold, by identity, how many hold it.
    var holders: [Int: Int] = [:]
    /// The change being applied touched a run in progress: it keeps what it replaced.
    var changeTouchedARun = false

    /// The change being applied kept a value or touched a run: it is settled once it has
    /// propagated (`settleKeptValues`).
    var needsSettling: Bool { changeTouchedARun || !tentative.isEmpty }
}

/// A run that another one, on the same thread, nests in (see `_Staging.suspendedRuns`).
struct _SuspendedRun {
    let reaction: ObjectIdentifier
    /// The changes it holds.
    var held: [Int]
}

/// The values one stored node had before writes made while reaction runs were in progress.
struct _KeptValues {
    /// The node, retained by hand until its entry goes.
    let node: _Ref<_Node>
    /// Oldest first.
    var values: [_KeptValue]
}

/// A value a write replaced while reaction runs were in progress.
struct _KeptValue {
    /// The change that replaced it, by identity (`_RunSnapshots.change`).
    let change: Int
    /// The node's version while it held the value.
    let version: Int
    /// The value, as the node's `Value`.
    let value: Any
}

extension _Graph {
    /// A run starts inside another on the same thread: the outer one waits, with
    /// the changes it holds, until the inner one ends.
    @inline(never)
    func suspendCurrentRun(_ staging: _Staging, _ held: borrowing _HeldLock) {
        guard let outer = staging.runReaction else { return }
        var held: [Int] = []
        swap(&held, &staging.heldChanges)
        staging.suspendedRuns.append(_SuspendedRun(reaction: outer, held: held))
    }

    /// The current run on a thread ended inside another: the outer one goes on.
    @inline(never)
    func resumeOuterRun(_ staging: _Staging, _ held: borrowing _HeldLock) {
        let outer = staging.suspendedRuns.removeLast()
        staging.runReaction = outer.reaction
        staging.heldChanges = outer.held
    }

    /// A run's private values (and the nodes they hold) go with it, once the lock is released;
    /// a batch's stay (a run started inside it).
    @inline(never)
    func forgetPrivateValues(_ staging: _Staging, _ held: borrowing _HeldLock) {
        guard !staging.isActive else { return }
        keepUntilUnlock(staging.memo)
        staging.memo = [:]
    }

    /// A run that held changes ended: each change no other run holds lets go of
    /// its kept values.
    @inline(never)
    func releaseHeldChanges(_ staging: _Staging, _ held: borrowing _HeldLock) {
        let locked = state(held)
        var released: [Int] = []
        for change in staging.heldChanges {
            let remaining = (locked.snapshots.holders[change] ?? 1) - 1
            if remaining > 0 {
                locked.snapshots.holders[change] = remaining
            } else {
                locked.snapshots.holders[change] = nil
                released.append(change)
            }
        }
        staging.heldChanges.removeAll()
        if !released.isEmpty { dropKeptValues(of: released, held) }
    }

    /// A change has propagated from `source` (runs in progress on some thread): each
    /// reaction downstream whose run is in progress on another thread holds it, then, outside a
    /// batch's apply, the change is settled.
    ///
    /// The walk goes through every live node downstream, stale ones included: a computed value
    /// marked stale by an earlier change that a run holds, and not read since, stops the
    /// marking, but the run that read it must hold this change too.
    ///
    /// - Complexity: O(*n* × *t*) in the live nodes downstream and the threads with a run in
    ///   progress: only while another thread has one.
    @inline(never)
    func changePropagated(from source: _Node, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(source)]
        var stack: [_Ref<_Node>] = [_Ref(source)]
        while let node = stack.popLast() {
            let links = node.with { held[observers: $0].slotsInUse }
            for slot in 0..<links.count {
                let observer = links[slot].ref
                switch observer.with({ $0.kind }) {
                case .computed:
                    if visited.insert(ObjectIdentifier(observer.object)).inserted { stack.append(observer) }
                case .reaction:
                    touchRun(of: _downcast(observer.object, to: _ReactionNode.self), context, held)
                case .stored, .watcher:
                    break
                }
            }
        }
        if locked.snapshots.needsSettling, !locked.snapshots.isApplyingBatch { settleKeptValues(held) }
    }

    /// A change reached `reaction`: if a run of it is in progress on another
    /// thread, it holds the change, which made something it read out of date, and the reaction
    /// is marked, so that it runs again with the new values (the marking stops at a computed
    /// value already stale, which this walk passes). A run started inside a batch reads in the
    /// batch's view and holds nothing.
    ///
    /// - Complexity: O(*t*) in the threads with a run in progress.
    private func touchRun(of reaction: _ReactionNode, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let id = ObjectIdentifier(reaction)
        let change = locked.snapshots.change
        var cursor = locked.snapshots.runningHead
        while let staging = cursor?.object {
            cursor = staging.nextRunning
            if staging.runReaction == id {
                guard hold(change, in: &staging.heldChanges, of: staging, held) else { return }
                // Its private values were evaluated without this change's kept values.
                staging.generation &+= 1
            } else if let index = staging.suspendedRuns.lastIndex(where: { $0.reaction == id }) {
                guard hold(change, in: &staging.suspendedRuns[index].held, of: staging, held) else { return }
            } else {
                continue
            }
            if case .queue = held[lifecycle: reaction].marked(bySelf: false) {
                context.jobs.append(.reaction(reaction))
            }
            return
        }
    }

    /// Makes a run on `staging`'s thread, holding `heldChanges`, hold `change`. Returns
    /// whether it holds it newly; a run started inside a batch holds nothing.
    private func hold(
        _ change: Int, in heldChanges: inout [Int], of staging: _Staging, _ held: borrowing _HeldLock
    ) -> Bool {
        let locked = state(held)
        guard !staging.isActive else { return false }
        locked.snapshots.changeTouchedARun = true
        guard heldChanges.last != change else { return false }
        heldChanges.append(change)
        locked.snapshots.holders[change, default: 0] += 1
        return true
    }

    /// Starts applying a batch's writes: one change, for the runs it touches.
    func beginBatchApply(_ held: borrowing _HeldLock) {
        state(held).snapshots.isApplyingBatch = true
    }

    /// Ends applying a batch's writes: settles the change.
    func endBatchApply(_ held: borrowing _HeldLock) {
        let locked = state(held)
        locked.snapshots.isApplyingBatch = false
        if locked.snapshots.needsSettling { settleKeptValues(held) }
    }

    /// Keeps the value `node` holds, about to be replaced by a write, for the runs in progress:
    /// tentatively, until the change has propagated (`settleKeptValues`).
    /// `version` is the node's version now.
    @inline(never)
    func keepReplacedValue(of node: _Node, _ value: () -> Any, version: Int, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let kept = _KeptValue(change: locked.snapshots.change, version: version, value: value())
        let id = ObjectIdentifier(node)
        if locked.snapshots.history[id] != nil {
            locked.snapshots.history[id]?.values.append(kept)
        } else {
            if node._stagedCount == .max { failTooManyStagingThreads(of: node, held) }
            node._stagedCount += 1
            if locked.snapshots.history.isEmpty { stagingThreads += 1 }
            locked.snapshots.history[id] = _KeptValues(node: _Ref(retaining: node), values: [kept])
        }
        locked.snapshots.tentative.append(id)
    }

    /// Once a change has propagated: keeps what it replaced if it touched a run in
    /// progress; otherwise lets it go at once (released with the lock, on this thread). The
    /// next change gets another identity.
    @inline(never)
    func settleKeptValues(_ held: borrowing _HeldLock) {
        let locked = state(held)
        let keeps = locked.snapshots.changeTouchedARun
        locked.snapshots.changeTouchedARun = false
        locked.snapshots.change &+= 1
        let tentative = locked.snapshots.tentative
        locked.snapshots.tentative.removeAll(keepingCapacity: true)
        if keeps { return }
        for id in tentative {
            guard let values = locked.snapshots.history[id]?.values, let newest = values.last else { continue }
            keepUntilUnlock(newest.value)
            if values.count >= 2 {
                locked.snapshots.history[id]?.values.removeLast()
            } else {
                forget(id, held)
            }
        }
    }

    /// Drops the values kept for `changes`, which no run holds any more (they are
    /// released with it).
    ///
    /// - Complexity: O(*k*) in the nodes with kept values.
    private func dropKeptValues(of changes: [Int], _ held: borrowing _HeldLock) {
        let locked = state(held)
        for (id, kept) in locked.snapshots.history {
            let keep = kept.values.filter { !changes.contains($0.change) }
            if keep.count == kept.values.count { continue }
            keepUntilUnlock(kept.values)
            if keep.isEmpty {
                forget(id, held)
            } else {
                locked.snapshots.history[id]?.values = keep
            }
        }
    }

    /// Forgets the kept values of a node (its values already handed to
    /// `keepUntilUnlock`).
    private func forget(_ id: ObjectIdentifier, _ held: borrowing _HeldLock) {
        let locked = state(held)
        guard let kept = locked.snapshots.history.removeValue(forKey: id) else { return }
        kept.node.with { $0._stagedCount -= 1 }
        releaseAfterUnlock(kept.node, held)
        if locked.snapshots.history.isEmpty { stagingThreads -= 1 }
    }

    /// The value a run holding `changes` reads for `node`, if one of them replaced it: the
    /// value before the earliest of them.
    ///
    /// - Complexity: O(*k* × *c*) in the values kept for `node` and the changes held.
    func keptValue(of node: _Node, for changes: [Int], _ held: borrowing _HeldLock) -> _KeptValue? {
        let locked = state(held)
        guard !changes.isEmpty, !locked.snapshots.history.isEmpty,
            let values = locked.snapshots.history[ObjectIdentifier(node)]?.values
        else { return nil }
        return values.first { changes.contains($0.change) }
    }
}

extension _Staging {
    /// Whether this thread's run reads a kept value for `node`.
    func readsKeptValue(of node: _Node, _ graph: _Graph, _ held: borrowing _HeldLock) -> Bool {
        !heldChanges.isEmpty && node._stagedCount != 0 && graph.keptValue(of: node, for: heldChanges, held) != nil
    }
}
