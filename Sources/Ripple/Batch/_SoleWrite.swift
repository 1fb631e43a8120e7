import _RippleRef

/// A batch's only write so far, kept in its thread's context without taking the graph's lock.
///
/// Most batches make one write: `batch { value = x }`, or a queued write applied in a delivery
/// round. Staging it in `_Staging` takes the lock for bookkeeping that only this thread ever
/// needs (other threads read committed values whatever it staged), and the commit takes the
/// lock again. So a batch's first write, when its value fits in `capacity` bytes, is kept here
/// instead. When the batch ends with nothing but that write (the common case), it is committed
/// as an unbatched write would be (`commitSoleWriteAsWrite`): one acquisition of the lock, the
/// value applied straight from the storage, the reactions delivered after. Otherwise the
/// batch's commit applies it under the one acquisition it makes anyway.
///
/// Staged on demand. Before this thread can see the batch's view or add to it, the code that
/// holds the lock moves the write into `_Staging` (`_Graph.stageSoleWrite`), and from then on
/// the batch is an ordinary one:
/// - a read at the top level (the fast read path sends it down the general path, which stages
///   first), `peek`, `writeCount` and anything else under `_Graph.withLock`;
/// - a second write (`Stored._beginStaging`), or an Observation model's change in the batch;
/// - the commit itself when a tracer was installed after the write (so that the trace shows the
///   batch as staged) or some thread holds a value for a read-modify-write (the commit must wait
///   for it).
///
/// A derivation needs no such step: it reads committed values, in the shared graph, whatever
/// its thread staged.
///
/// Writes that go to `_Staging` at once: a write made while this thread holds the graph's lock
/// (a derivation's, which fails there with its message, or one made by a user's equality check
/// while the commit holds it), a write while a tracer is installed (the trace shows each write
/// when it is made), a write while some stored value has before-change handlers (its staging
/// calls them, under the lock it takes: see `Stored+WillChange.swift`), a value larger than
/// `capacity`, and a write while the last sole write is still being applied or released. The
/// same on every platform: the lock records its owner everywhere (see `_Lock`).
///
/// Only its own thread touches it.
@usableFromInline
struct _SoleWrite {
    /// What the write's own code does (compiled for the value's type where the write was made):
    /// stage it, or apply it, both with the lock held; or, with the lock released, destroy the
    /// value the write replaced.
    @usableFromInline
    typealias Perform = (_Node, _ValueStorage, Int, _Ref<_ThreadContext>, _SoleWriteStep) -> Void

    /// The largest value kept here, in bytes; larger ones are staged.
    @usableFromInline static var capacity: Int { 64 }
    /// The strictest alignment of a value kept here.
    @usableFromInline static var alignment: Int { 16 }

    /// The value: written by the batch, then, once applied, the value it replaced (until it is
    /// destroyed, with the lock released).
    @usableFromInline let storage = _ValueStorage(byteCount: capacity, alignment: alignment)
    /// The written node, retained from the write until the write is staged or, once applied,
    /// released: kept alive until the batch is applied, like a staged node.
    @usableFromInline var node: _Ref<_Node>?
    /// The writes made (equal ones included, for `writeCount`).
    @usableFromInline var writes = 0
    /// The write's own code, while `node` is set. Not optional: a function stored in an
    /// `Optional` is kept in its most general form, and storing one costs an allocation.
    /// Kept from one write to the next while the written nodes are of one class (`performClass`):
    /// the code depends only on the value's type, and storing a function costs reference counting.
    @usableFromInline var perform: Perform = { _, _, _, _, _ in }
    /// The class of node `perform` was stored for.
    @usableFromInline var performClass: ObjectIdentifier?
    /// Where the write is: no new write is kept until it is `.free` again.
    @usableFromInline var phase = _SoleWritePhase.free

    /// Whether a write is kept and not yet applied or staged.
    @inlinable
    var isPending: Bool { phase == .pending }

    /// Whether the write was applied and its node and replaced value wait to be released.
    @inlinable
    var isApplied: Bool { phase == .applied }
}

/// The steps of a sole write's life. Each is left only by the code that entered it, so code
/// that a step runs (a user's equality check while it is applied, a deinitializer while it is
/// finished) can make a batch of its own without touching this one: its writes are staged.
@usableFromInline
enum _SoleWritePhase: UInt8 {
    /// Nothing kept.
    case free
    /// A write is kept (`node`, `storage`).
    case pending
    /// The commit is applying it (lock held).
    case applying
    /// Applied; its node and the value it replaced wait for the lock to be released.
    case applied
    /// Its replaced value and node are being released (lock released).
    case finishing
}

/// What `_SoleWrite.Perform` does.
@usableFromInline
enum _SoleWriteStep {
    /// Stage the value in `_Staging` (lock held).
    case stage
    /// Apply the value to the node, leaving the value it replaced in the storage (lock held).
    case apply
    /// Destroy the value the write replaced (lock released).
    case destroyReplaced
    /// Commit the value as an unbatched write: take it out of the storage, apply it (the write
    /// takes the lock), deliver the reactions, then destroy the value it replaced (lock released
    /// throughout; see `_ThreadContext.commitSoleWriteAsWrite`).
    case commit
}

/// Where `Stored._stage` puts a write (see `_ThreadContext._soleWriteSlot`).
@usableFromInline
enum _SoleWriteSlot {
    /// The first write of the batch, kept in the context: initialize the storage.
    case kept(_ValueStorage)
    /// Another write of the kept node: replace the value in the storage.
    case replacing(_ValueStorage)
    /// Not kept: stage it.
    case staged
}

extension _ThreadContext {
    /// Where a write of `node` made in a batch goes: kept as the batch's sole write, replacing
    /// it, or staged (see `_SoleWrite`). Takes no lock.
    ///
    /// - Complexity: O(1).
    @usableFromInline @inline(never)
    func _soleWriteSlot(for node: _Node, perform: @escaping _SoleWrite.Perform) -> _SoleWriteSlot {
        if soleWrite.isPending {
            guard soleWrite.node!.refers(to: node) else {
                return .staged
            }
            soleWrite.writes &+= 1
            return .replacing(soleWrite.storage)
        }
        guard soleWrite.phase == .free, writes.route == .stage, !staging.isActive else { return .staged }
        let refused = node.graphRef.with { graph in
            // A write inside a derivation (this thread holds the lock) is staged, and fails there.
            // Never inlined and synchronous: the thread's identity may be read in place.
            graph.lock.isHeld(byThread: _Lock.threadOfNonInlinedSynchronousCaller)
                || graph.hasTracersInstalled
                || graph.hasWillChangeNodes
        }
        if refused { return .staged }
        soleWrite.node = .init(retaining: node)
        soleWrite.writes = 1
        let nodeClass = ObjectIdentifier(type(of: node))
        if soleWrite.performClass != nodeClass {
            soleWrite.perform = perform
            soleWrite.performClass = nodeClass
        }
        soleWrite.phase = .pending
        return .kept(soleWrite.storage)
    }
}

extension _Graph {
    /// Moves this thread's sole write, if it has one, into its `_Staging`: anything
    /// that may read in the batch's view or add to the batch calls this first.
    ///
    /// Inside a derivation, even inside its `untracked { }`, there is nothing to do: reads
    /// there see committed values (see `_ThreadContext.view`), and the write, made before the
    /// derivation began, can wait. That costs two loads.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func stageSoleWriteOfCallingThread(_ held: borrowing _HeldLock) {
        if state(held).evaluatingRef != nil || state(held).suspendedEvaluatingRef != nil { return }
        guard let context = _ThreadContext.existingRef else { return }
        context.with { context in
            if context.soleWrite.isPending { stageSoleWrite(context, held) }
        }
    }

    /// `stageSoleWriteOfCallingThread()` for inlinable code: a call, made by general paths only.
    @usableFromInline
    func _stageSoleWriteOfCallingThread(_ held: borrowing _HeldLock) {
        stageSoleWriteOfCallingThread(held)
    }

    /// `stageSoleWriteOfCallingThread()` for code that has the context at hand.
    @inline(__always)
    func stageSoleWrite(of context: _ThreadContext, _ held: borrowing _HeldLock) {
        if context.soleWrite.isPending { stageSoleWrite(context, held) }
    }

    /// Stages `context`'s sole write in its `_Staging` (a write pending).
    @inline(never)
    func stageSoleWrite(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        assertLockHeld()
        let node = context.soleWrite.node!
        let perform = context.soleWrite.perform
        let writes = context.soleWrite.writes
        context.soleWrite.node = nil
        context.soleWrite.phase = .free
        node.with {
            perform($0, context.soleWrite.storage, writes, .init(context), .stage)
        }
        // `_Staging` retained the node: this is not its last reference.
        node.release()
    }

    /// Applies `context`'s sole write (a write pending), leaving the node and the
    /// value it replaced for `finishSoleWrite` once the lock is released.
    func applySoleWrite(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        assertLockHeld()
        context.soleWrite.phase = .applying
        context.soleWrite.node!.with { node in
            context.soleWrite.perform(
                node, context.soleWrite.storage, context.soleWrite.writes, .init(context), .apply)
        }
        context.soleWrite.phase = .applied
    }
}

extension _ThreadContext {
    /// Commits the batch's sole write as an unbatched write, when the outermost batch ends with
    /// nothing else to commit (lock released, not delivering); returns `false`, touching
    /// nothing, when the batch must go through `commitStaged` instead.
    ///
    /// A batch whose only change is one write of one value is, for every other thread, that
    /// write: readers see it or not, and its reactions run once, after it. So it takes the
    /// unbatched write's path (`Stored._write`, then the delivery), which costs one
    /// acquisition of the lock and no staging bookkeeping. The commit goes through
    /// `commitStaged` when the value was written more than once (each write is counted under
    /// the commit's one acquisition, for `writeCount`), when the batch also staged or reserved
    /// something, or while a tracer is installed (the trace shows the batch).
    ///
    /// The slot is freed before the write is applied: the reactions it delivers, and the
    /// deinitializer of the value it replaced, may make batches of their own on this thread.
    /// As after an unbatched write, the value it replaced is released after the writes its
    /// reactions queued are delivered.
    ///
    /// The tracer check reads `tracersInstalled` without the lock: a tracer installed by
    /// another thread between that check and the write's acquisition of the lock sees the
    /// batch as the one write it made, with no batch start and end around it. A tracer
    /// installed before the batch's write stages it at once, and one installed from this
    /// thread stages it first (as anything that takes the lock on this thread does).
    @inline(__always)
    func commitSoleWriteAsWrite() -> Bool {
        guard soleWrite.isPending, soleWrite.writes == 1, !staging.isActive, reservations.isEmpty else { return false }
        let node = soleWrite.node!
        let traced = node.with {
            $0.graphRef.with { $0.hasTracersInstalled }
        }
        if traced { return false }
        let perform = soleWrite.perform
        soleWrite.node = nil
        soleWrite.phase = .free
        #if RIPPLE_INVARIANTS
        soleWritesCommittedAsWrites += 1
        #endif
        node.with { perform($0, soleWrite.storage, 1, .init(self), .commit) }
        node.release()
        return true
    }

    /// Destroys the value the applied sole write replaced and releases its node (lock released).
    ///
    /// Either may run user code (a deinitializer) that makes a batch of its own: the phase is
    /// `.finishing` meanwhile, so that batch's commit finds nothing to finish and its write is
    /// staged rather than kept in the storage.
    func finishSoleWrite() {
        guard soleWrite.isApplied, let node = soleWrite.node else { return }
        soleWrite.phase = .finishing
        node.with {
            soleWrite.perform($0, soleWrite.storage, 0, .init(self), .destroyReplaced)
        }
        soleWrite.node = nil
        soleWrite.phase = .free
        node.release()
    }
}

extension Stored {
    /// This node's sole write (see `_SoleWrite`), compiled for `Value`: staged or applied with
    /// the lock held; once applied and the lock released, the value it replaced destroyed; or,
    /// lock released, committed as an unbatched write.
    @inlinable
    func _performSoleWrite(
        _ step: _SoleWriteStep, _ storage: _ValueStorage, _ writes: Int, _ context: _Ref<_ThreadContext>
    ) {
        switch step {
        case .stage:
            _stageSoleWrite(storage, writes, context)
        case .apply:
            _applySoleWrite(storage, writes, context)
        case .destroyReplaced:
            storage.destroy(as: Value.self)
        case .commit:
            _writeAndDeliver(storage.move(as: Value.self), context)
        }
    }

    /// Applies a sole write with the batch's other writes (while `applySoleWrite` holds the
    /// lock; `_applyStaged` takes its nested acquisitions). Not inlined into
    /// `_performSoleWrite`: the batch of one write, the common case, takes its `.commit` step,
    /// and the closure that dispatches the steps stays small (inlined, this step cost every
    /// batch of one write 9 instructions in the closure's prologue and epilogue).
    @inlinable @inline(never)
    func _applySoleWrite(_ storage: _ValueStorage, _ writes: Int, _ context: _Ref<_ThreadContext>) {
        var value = storage.move(as: Value.self)
        _applyStaged(&value, writes: writes, context)
        // What the write replaced (or the value itself, if equal), destroyed once the lock
        // is released.
        storage.initialize(as: Value.self, to: value)
    }

    /// Moves a sole write into the batch's `_Staging` (lock held, by `stageSoleWrite`, which
    /// reaches this through the type-erased `perform`: this step takes a nested acquisition of
    /// its own, a count on the lock the thread holds), as if staged when made.
    @usableFromInline
    func _stageSoleWrite(_ storage: _ValueStorage, _ writes: Int, _ context: _Ref<_ThreadContext>) {
        let contextRef = context
        let graph = graphRef.object
        let held = graph.takeLock()
        context.with { context in
            let slot = _stageLocked(graph, context, held) { node, staging, context, held in
                _downcast(node, to: Stored<Value>.self)._commitStaged(by: staging, context, held)
            }
            var value = Optional(storage.move(as: Value.self))
            if graph.tracingCount != 0 { _recordStagedWrite(value!, contextRef, held) }
            // The batch staged nothing before: the value takes a free slot, replacing nothing.
            switch slot {
            case .own:
                _extras!.with { extras in
                    swap(&extras._stagedValue, &value)
                    held[stagedWrites: extras] = writes
                }
            case .apart:
                _stageApart(&value)
                context.staging.overflow[ObjectIdentifier(self)]!.count = writes
            }
        }
        held.release(graph)
    }
}
