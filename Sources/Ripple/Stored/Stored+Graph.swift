import Observation
import _RippleRef

// The graph bookkeeping of a `Stored`: locking for reads and writes, stamping versions,
// propagating, queueing deliveries and Observation notices, tracing. `Stored.swift` holds the
// public API and the inlinable write that calls these.
extension Stored {
    /// The value, read without tracking or Observation registration (inside a batch, as the
    /// batch sees it).
    func peek() -> Value {
        _graph.withLock { held in _valueInView(held) }
    }

    /// Takes the lock for a write, stops a write made by a derivation, waits for another
    /// thread's read-modify-write of this value to end, and counts the write. Returns the
    /// acquisition, for `_commitWrite`, `_unlockAfterWrite` or
    /// `_markReadersOfReplacedStagedValue` to release; `nil`, with nothing held and nothing
    /// counted, for the write of a read-modify-write that another write overtook (the caller
    /// retries it).
    @usableFromInline @inline(never)
    func _lockForWrite(_ context: _Ref<_ThreadContext>) -> _HeldLock? {
        // Handed out through a variable: a closure's result must be copyable.
        var taken: _HeldLock? = nil
        graphRef.with { graph in
            // Never inlined and synchronous: the thread's identity may be read in place.
            var held = graph.takeLock(as: _Lock.threadOfNonInlinedSynchronousCaller)
            graph.refuseWrite(to: self, on: nil, held)
            if _exclusiveOwner(held) != nil || graph.readModifyWriteRegions != 0 {
                guard let admitted = _admitWrite(graph, context, held) else { return }
                held = admitted
            }
            held[writes: self] &+= 1
            if let extras = _extras, let writeCounter = extras.with({ held[writeCounter: $0] }) {
                _ = writeCounter._write(held[writes: self], context)
            }
            // The equality check runs next: a write from inside it fails (see `comparingRef`).
            graph.state(held).comparingRef = .init(self)
            taken = consume held
        }
        return taken
    }

    /// Gives the write counter, just written by `_lockForWrite`, the version a reaction's read
    /// of the count in a batch's view reserved for it (see
    /// `_StagedRead.countVersion`).
    @usableFromInline @inline(never)
    func _stampWriteCounter(_ reserved: Int, _ held: borrowing _HeldLock) {
        extrasRef.with { held[writeCounter: $0] }?._stampVersion(reserved, held)
    }

    /// Releases the lock after a write that changed nothing.
    @usableFromInline
    func _unlockAfterWrite(_ held: consuming _HeldLock) {
        graphRef.with { $0.state(held).comparingRef = nil }
        held.release(graphRef)
    }

    /// Gives the value being written a new version. (A batch's writes are applied
    /// once each, when it ends, so a value changed and changed back inside a batch is never
    /// written: see `_Staging`.)
    @usableFromInline
    func _stampVersion(_ held: borrowing _HeldLock) {
        graphRef.with { graph in
            if graph.state(held).snapshots.runningThreads != 0 { _keepReplacedValue(graph, held) }
            held[version: self] = graph.makeID(held)
        }
    }

    /// Keeps the value about to be replaced for the reaction runs in progress on other threads,
    /// until the write has propagated (see `_RunSnapshots`).
    @inline(never)
    func _keepReplacedValue(_ graph: _Graph, _ held: borrowing _HeldLock) {
        graph.keepReplacedValue(of: self, { _value }, version: held[version: self], held)
    }

    /// Gives the value being written the version a reaction's read reserved for it (lock
    /// held; see `_StagedRead`).
    @usableFromInline
    func _stampVersion(_ reserved: Int, _ held: borrowing _HeldLock) {
        graphRef.with { graph in
            if graph.state(held).snapshots.runningThreads != 0 { _keepReplacedValue(graph, held) }
        }
        held[version: self] = reserved
    }

    /// A batch's apply that commits nothing, although reactions read a value the batch staged
    /// and then replaced (releases `held`): marks the readers as a write would,
    /// without changing the value or its version, and tells Observation nothing.
    ///
    /// Those reactions' edges hold the version reserved for the replaced value, which the node
    /// never gets: marked, they find it differs and run again, seeing the committed value
    /// instead of one that was never committed. Every other reader's edge holds the node's
    /// version, so it does not run, and a computed value that reads the node is verified, not
    /// evaluated again. Committing the value instead (with a new version) ran every reader
    /// again for a value equal to the one it saw (an `onChange` heard `0 → 0`), and, for an
    /// equality that refuses an older value (RippleStore's snapshots), replaced a newer value
    /// that another thread had committed meanwhile with the batch's older one.
    @usableFromInline
    func _markReadersOfReplacedStagedValue(_ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock) {
        graphRef.with { graph in
            graph.state(held).comparingRef = nil
            context.with { graph.propagate(from: self, into: $0, held) }
        }
        held.release(graphRef)
    }

    /// Propagates a committed write, queues the Observation notice, and releases `held`.
    ///
    /// `runningJobs` (an unbatched write, see `_write`): the jobs the write queued run first,
    /// holding the lock from the commit to the first reaction, as a batch's commit does, so
    /// that a write and its reactions cost one acquisition, not two.
    @usableFromInline
    func _commitWrite(_ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock, runningJobs: Bool = false) {
        // Through a variable: a closure cannot consume what it captures.
        var held = Optional(held)
        graphRef.with { graph in
            context.with { context in
                graph.state(held!).comparingRef = nil
                graph.state(held!).epoch &+= 1
                graph.propagate(from: self, into: context, held!)
                if _extras != nil, _isArmedForObservation(held!) {
                    context.jobs.append(.notify(self))
                }
                if runningJobs {
                    graph.unlockRunningQueuedJobs(context, held.take()!)
                } else {
                    held.take()!.release(graph)
                }
            }
        }
    }

    /// Whether an Observation scope armed this value (see `armObservation`): its changes are
    /// told to Observation.
    @inline(__always)
    private func _isArmedForObservation(_ held: borrowing _HeldLock) -> Bool {
        _extras?.with { held[observationRef: $0] != nil } ?? false
    }

    /// Queues a write made while reactions are being delivered.
    @usableFromInline
    func _queueWrite(_ context: _Ref<_ThreadContext>, _ apply: @escaping () -> Void) {
        graphRef.with { graph in
            context.with { graph.queueWrite($0, apply) }
        }
    }

    /// Runs the reactions a write queued (unless a batch or a delivery is in progress).
    @usableFromInline
    func _deliver(_ context: _Ref<_ThreadContext>) {
        graphRef.with { graph in
            context.with { graph.deliver($0) }
        }
    }

    /// Records a write for the tracers.
    @usableFromInline @inline(never)
    func _recordWrite(old: Value, new: Value, _ context: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        graphRef.with { graph in
            context.with { graph.recordTrace(.write(node: traceName, old: old, new: new), $0, held) }
        }
    }

    /// Records a write staged in a batch for the tracers, called once the write has
    /// its slot and before its value is put there: its old value is the value committed before
    /// the batch. A write of a value equal to the one the batch's view holds (its previous
    /// write, or the committed value) is not recorded, as an unbatched write of an equal value
    /// is not.
    @usableFromInline @inline(never)
    func _recordStagedWrite(_ newValue: Value, _ context: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        if let isEqual = _isEqual {
            let staging = context.with { $0.staging }
            var current = _value
            if let extras = _extras?.object,
                held[stagedOwner: extras]?.refers(to: staging) == true
            {
                // Nothing in the slot yet: the batch's first write of the value.
                if let staged = extras._stagedValue { current = staged }
            } else if !staging.overflow.isEmpty, let entry = staging.overflow[ObjectIdentifier(self)] {
                current = entry.value as! Value
            }
            // As in an unbatched write, a write from inside the equality check fails.
            let equal = graphRef.with { graph in
                graph.state(held).comparingRef = .init(self)
                defer { graph.state(held).comparingRef = nil }
                return isEqual(current, newValue)
            }
            if equal { return }
        }
        _recordWrite(old: _value, new: newValue, context, held)
    }

    /// A read that no derivation or reaction tracked, under `held`, which it releases. If an
    /// Observation tracking scope records it, the value is armed, and the access registered
    /// (see `_Graph.finishUntrackedRead`). Read anywhere else, the value stays unarmed: its
    /// writes tell Observation nothing.
    @usableFromInline
    func _untrackedRead(_ held: consuming _HeldLock) {
        graphRef.with(handing: held) { graph, held in
            let armed = _extras?.with { held[observationRef: $0] } ?? nil
            graph.finishUntrackedRead(held, armed: armed) { held in
                armObservation(held)
            }
        }
    }

    /// Called under the lock by a read an Observation scope recorded: every later change is
    /// reported to Observation. Returns the subject, which this node keeps alive.
    ///
    /// Once armed, the node stays armed, as an `@Observable` property tells its registrar of
    /// every change: `withObservationTracking` installs its observers only when its body ends,
    /// so a write between this read and that installation must not use up the only notice
    /// (the registration would never hear a later change). Ripple cannot see when the
    /// installation happens, so no later moment is provably safe to disarm.
    fileprivate func armObservation(_ held: borrowing _HeldLock) -> _Ref<_ObservationSubject> {
        if let observationRef = _extras?.with({ held[observationRef: $0] }) { return observationRef }
        let created = _Ref(retaining: _ObservationSubject())
        held[observationRef: extras] = created
        return created
    }

    /// The node's extras, created now if needed (lock held).
    var extras: _StoredExtras<Value> {
        extrasRef.object
    }

    /// The node's extras as a +0 reference, created now if needed (lock held).
    var extrasRef: _Ref<_StoredExtras<Value>> {
        if let _extras { return _extras }
        let created = _Ref(retaining: _StoredExtras<Value>())
        _extras = created
        return created
    }
}
