import _RippleRef

/// Writes inside a batch: staged on the writing thread, applied together when the outermost
/// batch ends (see `_Staging`).
extension Stored {
    /// Records a write made inside a batch on this thread; it is applied when the outermost
    /// batch ends. Only the bookkeeping runs under the lock; the staged value it replaces is
    /// released after.
    ///
    /// Inlinable, like the setter: the parts that handle `Value` (and the function that will
    /// apply the write) are compiled for the concrete type in the client.
    @inlinable
    func _stage(_ newValue: Value, _ context: _Ref<_ThreadContext>) {
        // The batch's only write so far is kept in the context, unlocked (see `_SoleWrite`).
        if MemoryLayout<Value>.size <= _SoleWrite.capacity, MemoryLayout<Value>.alignment <= _SoleWrite.alignment {
            let slot = context.with { context in
                context._soleWriteSlot(for: self) { node, storage, writes, context, step in
                    _downcast(node, to: Stored<Value>.self)._performSoleWrite(step, storage, writes, context)
                }
            }
            switch slot {
            case .kept(let storage):
                storage.initialize(as: Value.self, to: newValue)
                return
            case .replacing(let storage):
                // The value this write replaces, released here, unlocked.
                let replaced = storage.replace(as: Value.self, with: newValue)
                withExtendedLifetime(replaced) {}
                return
            case .staged:
                break
            }
        }
        var held: _HeldLock? = nil
        let slot = _beginStaging(newValue, context, &held) { node, staging, context, held in
            _downcast(node, to: Stored<Value>.self)._commitStaged(by: staging, context, held)
        }
        guard let held else {
            // A queued write applied outside any batch: applied at once.
            _ = _write(newValue, context)
            return
        }
        var newValue = Optional(newValue)
        if graphRef.with({ $0.tracingCount != 0 }) {
            _recordStagedWrite(newValue!, context, held)
        }
        switch slot {
        case .own:
            _extras!.with { swap(&$0._stagedValue, &newValue) }
        case .apart:
            _stageApart(&newValue)
        }
        _endStaging(context, held)
        // The staged value this write replaced, released here, unlocked.
        newValue = nil
    }

    /// Takes the lock for a staged write of `newValue`, into `held`, and does its bookkeeping:
    /// says where the value goes, this node's own slot (free, or already this batch's) or apart.
    /// Leaves `held` `nil`, taking nothing, when the write is not inside a batch (the slot is
    /// then meaningless). A value with before-change handlers has them called first
    /// (`_stageCallingWillChange`, which releases the lock around them: `held` is then the
    /// acquisition taken after them). The caller releases the acquisition with `_endStaging`.
    ///
    /// The acquisition comes back through `held` rather than with the slot: one call either way.
    /// The handlers are called from here, not from the inlined caller, which stays small enough
    /// to be inlined into the setter (`count-instructions.sh --store batch10`: about 20
    /// instructions per staged write).
    @usableFromInline
    func _beginStaging(
        _ newValue: Value, _ context: _Ref<_ThreadContext>, _ held: inout _HeldLock?,
        commit: @escaping _StagedEntry.Commit
    ) -> _StagingSlot {
        context.with { context in
            guard context.writes.batchDepth > 0 else { return .own }
            return graphRef.with { graph in
                held = graph.takeLock()
                // A derivation's write fails here, naming the value it wrote, and so does a write
                // from inside the equality check of a write being applied.
                graph.refuseWrite(to: self, on: context, held!)
                // The batch's sole write, if it kept one, comes first.
                graph.stageSoleWrite(of: context, held!)
                // Before-change handlers are called first (see `Stored+WillChange.swift`).
                if _hasWillChangeHandlers {
                    var slot = _StagingSlot.own
                    held = _stageCallingWillChange(newValue, .init(context), held.take()!, slot: &slot, commit: commit)
                    return slot
                }
                return _stageLocked(graph, context, held!, commit: commit)
            }
        }
    }

    /// `_beginStaging`'s bookkeeping, the lock held: also how a sole write is staged. The
    /// caller has refused a write made by a derivation (`_beginStaging` checks; a sole write was
    /// kept only by a thread that did not hold the lock, so no derivation made it).
    func _stageLocked(
        _ graph: _Graph, _ context: _ThreadContext, _ held: borrowing _HeldLock, commit: @escaping _StagedEntry.Commit
    ) -> _StagingSlot {
        let staging = context.staging
        staging.generation &+= 1
        let me = _Ref(staging)
        if let extras = _extras, extras.with({ held[stagedOwner: $0]?.address == me.address }) {
            extras.with { extras in
                held[stagedWrites: extras] &+= 1
                held[stagedRead: extras].replace()
            }
            return .own
        }
        if !staging.overflow.isEmpty, staging.overflow[ObjectIdentifier(self)] != nil { return .apart }
        // The first write of this value in the batch.
        if !staging.isActive {
            graph.stagingThreads += 1
            if graph.isTracing { graph.recordTrace(.batchStart, context, held) }
        }
        staging.append(self, commit: commit)
        if _stagedCount == .max { graph.failTooManyStagingThreads(of: self, held) }
        _stagedCount += 1
        return extrasRef(held).with { extras in
            guard held[stagedOwner: extras] == nil else { return .apart }
            held[stagedOwner: extras] = me
            held[stagedWrites: extras] = 1
            held[stagedRead: extras] = _StagedRead()
            return .own
        }
    }

    /// Stages a value apart from the node, whose own slot another thread's batch holds (lock
    /// held). Leaves the value it replaces, if any, in `newValue`.
    @usableFromInline
    func _stageApart(_ newValue: inout Value?) {
        let staging = _ThreadContext.current.staging
        if let entry = staging.overflow[ObjectIdentifier(self)] {
            entry.count &+= 1
            entry.read.replace()
            var value: Any = newValue!
            swap(&entry.value, &value)
            newValue = (value as! Value)
        } else {
            staging.overflow[ObjectIdentifier(self)] = _StagedWrite(value: newValue!)
            newValue = nil
        }
    }

    /// Releases the acquisition of a staged write (`_beginStaging`).
    @usableFromInline
    func _endStaging(_ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock) {
        held.release(graphRef)
        context.with { context in
            if !context.staging.trash.isEmpty { context.staging.emptyTrash() }
        }
    }

    /// The value `staging` staged for this node, if any, with the number of writes.
    private func staged(by staging: _Staging, _ held: borrowing _HeldLock) -> (value: Value, writes: Int)? {
        if let extras = _extras?.object,
            held[stagedOwner: extras]?.refers(to: staging) == true
        {
            return (extras._stagedValue!, held[stagedWrites: extras])
        }
        guard !staging.overflow.isEmpty, let entry = staging.overflow[ObjectIdentifier(self)] else { return nil }
        return (entry.value as! Value, entry.count)
    }

    /// What this thread's batch staged for this node, if it reads in its batch's view now
    /// (`_stagedCount` not zero).
    private func stagedInView(_ context: _ThreadContext, _ held: borrowing _HeldLock) -> (value: Value, writes: Int)? {
        guard context.view(graphRef.object, held) != .committed else { return nil }
        return staged(by: context.staging, held)
    }

    /// A read of a value some thread has staged, under `held`, which it releases: the staged
    /// value if this thread staged it and reads in its batch's view, else the committed one.
    @usableFromInline
    func _readStaged(_ held: consuming _HeldLock) -> Value {
        let context = _ThreadContext.current
        let view = context.view(graphRef.object, held)
        var current = _value
        var readsStaged = false
        var keptVersion: Int? = nil
        if view != .committed {
            if let staged = staged(by: context.staging, held) {
                current = staged.value
                readsStaged = true
            } else if let kept = graphRef.with({ $0.keptValue(of: self, for: context.staging.heldChanges, held) }) {
                // A reaction's run reads the value it had before a change the run holds (see
                // `_RunSnapshots`).
                current = kept.value as! Value
                keptVersion = kept.version
            }
        }
        if view == .privateEvaluation {
            // Inside a private derivation: nothing is tracked. A later write of the value makes
            // the apply mark its readers even if it commits nothing (see `_StagedRead`).
            if readsStaged { notePrivateReadOfStagedValue(context.staging, held) }
            held.release(graphRef)
            return current
        }
        if let keptVersion {
            // Its edge holds the version of the value it read: the run, marked by the change,
            // runs again with the newer one.
            let tracked = graphRef.with { graph in
                guard graph.trackRead(self, held) else { return false }
                _ = graph.recordVersionOfRunRead(of: self, keptVersion, held)
                return true
            }
            if tracked {
                held.release(graphRef)
                return current
            }
        } else if readsStaged {
            // A reaction's run in the batch's view: its edge records the version the staged
            // value will have (see `_StagedRead`).
            let tracked = graphRef.with { graph in
                guard graph.trackRead(self, held) else { return false }
                graph.recordVersionOfRunRead(of: self, reservedVersionOfStagedValue(context.staging, graph, held), held)
                return true
            }
            if tracked {
                held.release(graphRef)
                return current
            }
        } else if _trackRead(held) {
            _endGeneralRead(held)
            return current
        }
        _untrackedRead(held)
        return current
    }

    /// Updates what reactions read of the value `staging` staged for this node, kept with the
    /// value in the node's own slot or apart in the batch's `overflow`; `nil` when
    /// `staging` staged none.
    private func updateStagedRead<Result>(
        by staging: _Staging, _ held: borrowing _HeldLock, _ update: (inout _StagedRead) -> Result
    ) -> Result? {
        if let extras = _extras?.object,
            held[stagedOwner: extras]?.refers(to: staging) == true
        {
            return update(&held[stagedRead: extras])
        }
        guard staging.overflow[ObjectIdentifier(self)] != nil else { return nil }
        return update(&staging.overflow[ObjectIdentifier(self)]!.read)
    }

    /// The version the value `staging` staged for this node gets when it is applied, reserved
    /// for a reaction that reads it in the batch's view (see `_StagedRead`).
    private func reservedVersionOfStagedValue(_ staging: _Staging, _ graph: _Graph, _ held: borrowing _HeldLock) -> Int
    {
        updateStagedRead(by: staging, held) { $0.reserve(in: graph, held) }!
    }

    /// After a reaction's read of the write counter in its batch's view: its edge
    /// to `counter` records the version reserved for the counter once the staged writes are
    /// counted (see `_StagedRead.countVersion`). Does nothing outside the batch's view, or
    /// when no reaction tracked the read.
    func _reserveCountVersion(of counter: Stored<Int>, _ graph: _Graph, _ held: borrowing _HeldLock) {
        let context = _ThreadContext.current
        guard context.view(graph, held) == .batch,
            let reserved = updateStagedRead(by: context.staging, held, { $0.reserveCount(in: graph, held) })
        else { return }
        graph.recordVersionOfRunRead(of: counter, reserved, held)
    }

    /// Notes that a private evaluation read the value `staging` staged for this node (see
    /// `_StagedRead.readPrivately`).
    private func notePrivateReadOfStagedValue(_ staging: _Staging, _ held: borrowing _HeldLock) {
        _ = updateStagedRead(by: staging, held) { $0.readPrivately = true }
    }

    /// The value in this thread's view: the staged value inside its batch.
    func _valueInView(_ held: borrowing _HeldLock) -> Value {
        guard _stagedCount != 0 else { return _value }
        return stagedInView(.current, held)?.value ?? _value
    }

    /// The writes this thread's batch staged and has not yet applied.
    func _stagedWriteCount(_ held: borrowing _HeldLock) -> Int {
        guard _stagedCount != 0 else { return 0 }
        return stagedInView(.current, held)?.writes ?? 0
    }

    /// Applies the write `staging` staged (outside any batch): counts its writes,
    /// then, unless the staged value equals the committed one, swaps it in and propagates the
    /// change. The replaced value is handed to `staging`, released once the lock is.
    @inlinable
    func _commitStaged(by staging: _Staging, _ context: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        let writes = _takeStagedSlot(staging, held)
        guard writes > 0 else {
            _commitStagedApart(by: staging, context, held)
            return
        }
        let read = _takeStagedRead(held)
        var value = _extras!.with { $0._stagedValue.take()! }
        _applyStaged(&value, writes: writes, context, read: read)
        if !_isPOD(Value.self) { staging.keepForRelease(value) }
    }

    /// Ends this node's staging by `staging`: the writes it stands for when its
    /// value is in the node's own slot (which is freed), 0 when it is apart.
    @usableFromInline
    func _takeStagedSlot(_ staging: _Staging, _ held: borrowing _HeldLock) -> Int {
        _stagedCount -= 1
        guard let extras = _extras else { return 0 }
        return extras.with { extras in
            guard held[stagedOwner: extras]?.refers(to: staging) == true else { return 0 }
            held[stagedOwner: extras] = nil
            return held[stagedWrites: extras]
        }
    }

    /// What reactions read of the value staged in this node's own slot, taken with it (lock
    /// held; see `_StagedRead`).
    @usableFromInline
    func _takeStagedRead(_ held: borrowing _HeldLock) -> _StagedRead {
        extrasRef(held).with { extras in
            let read = held[stagedRead: extras]
            held[stagedRead: extras] = _StagedRead()
            return read
        }
    }

    /// `_commitStaged` for a value staged apart from the node.
    @usableFromInline
    func _commitStagedApart(by staging: _Staging, _ context: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        let entry = staging.overflow.removeValue(forKey: ObjectIdentifier(self))!
        var value = entry.value as! Value
        _applyStaged(&value, writes: entry.count, context, read: entry.read)
        staging.keepForRelease(value)
        staging.keepForRelease(entry)
    }

    /// Counts `writes` writes, then, unless `value` equals the committed value, swaps it in and
    /// propagates the change. Leaves the value not kept in `value`. Called while the batch's
    /// commit holds the lock; each write's step takes a nested acquisition of its own
    /// (`_lockForWrite`, a count on the lock the thread holds), so it needs no token.
    ///
    /// `read` says what reactions read of the staged value in the batch's view: the version
    /// it gets, if one was reserved, whether a private evaluation read it, and whether a value
    /// they read was replaced. A value equal to the committed one is still not applied then
    /// (the equality may also refuse an older value, as RippleStore's snapshots do, which must
    /// not replace a newer one): the readers are only marked, so that those that saw another
    /// value than the committed one run again (see `_markReadersOfReplacedStagedValue`). They
    /// saw the committed value only if the equality holds both ways.
    @inlinable
    func _applyStaged(
        _ value: inout Value, writes: Int, _ context: _Ref<_ThreadContext>, read: _StagedRead = _StagedRead()
    ) {
        // A nil from `_lockForWrite`: the write of a read-modify-write that another write
        // overtook (nothing is held, and the caller retries): nothing is applied.
        for _ in 1..<writes {
            guard let held = _lockForWrite(context) else { return }
            _unlockAfterWrite(held)
        }
        guard let held = _lockForWrite(context) else { return }
        if read.countVersion != 0 { _stampWriteCounter(read.countVersion, held) }
        if _isEqual?(_value, value) == true {
            // The readers run again if the value they read in the batch's view was replaced,
            // or is not the committed one after all: an equality that refuses an older value
            // (RippleStore's snapshots) calls a staged value older than the committed one
            // equal to it, and only the comparison the other way tells them apart.
            let wasRead = read.version != 0 || read.readPrivately
            if read.superseded || (wasRead && _isEqual?(value, _value) != true) {
                _markReadersOfReplacedStagedValue(context, held)
            } else {
                _unlockAfterWrite(held)
            }
            return
        }
        if read.version != 0 {
            _stampVersion(read.version, held)
        } else {
            _stampVersion(held)
        }
        swap(&_value, &value)
        _commitWrite(context, held)
    }
}

/// Where a staged write's value goes.
@usableFromInline
enum _StagingSlot {
    /// The node's own slot (`_extras._stagedValue`), held by this batch.
    case own
    /// Apart, in the batch's `overflow`: another batch holds the node's slot.
    case apart
}
