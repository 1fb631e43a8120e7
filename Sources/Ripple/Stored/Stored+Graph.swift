import Observation
import _RippleRef

// The graph bookkeeping of a `Stored` other than the write (which is in `Stored.swift`): reads
// without tracking, a batch's marks and reserved versions, Observation arming and tracing.
extension Stored {
    /// The value, read without tracking or Observation registration (inside a batch, as the
    /// batch sees it).
    func peek() -> Value {
        _graph.withLock { held in _valueInView(held) }
    }

    /// Gives the write counter, just written by `_lockForWrite`, the version a reaction's read
    /// of the count in a batch's view reserved for it (see
    /// `_StagedRead.countVersion`).
    @usableFromInline @inline(never)
    func _stampWriteCounter(_ reserved: Int, _ held: borrowing _HeldLock) {
        extrasRef(held).with { held[writeCounter: $0] }?._stampVersion(reserved, held)
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
        held[observationRef: extras(held)] = created
        return created
    }

    /// The node's extras, created now if needed.
    func extras(_ held: borrowing _HeldLock) -> _StoredExtras<Value> {
        extrasRef(held).object
    }

    /// The node's extras as a +0 reference, created now if needed.
    func extrasRef(_ held: borrowing _HeldLock) -> _Ref<_StoredExtras<Value>> {
        if let _extras { return _extras }
        let created = _Ref(retaining: _StoredExtras<Value>())
        _extras = created
        return created
    }
}
