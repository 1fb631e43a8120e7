import _RippleRef

/// Reports a ``Computed`` value's changes to the Observation framework.
///
/// Created by the first read that no Ripple reader tracked and that an Observation scope
/// recorded (a SwiftUI body, or `withObservationTracking`; see `_observationRecordsThisRead`),
/// it keeps the computed node live so writes reach it, and from
/// then on reports every change: when a write reaches it, it brings the value up to date and,
/// if the value changed since it last told the registrar, tells it again. It never disarms:
/// a registration may be waiting to be installed (see `Stored.armObservation`), so no change
/// may go untold. The cut-off holds: re-evaluating to an equal value tells nobody.
///
/// The cost: a computed value read once in such a scope is evaluated on the writing thread
/// after every change of its sources, as if a reaction read it. Read at the top level outside
/// any scope, it gets no watcher and stays lazy.
///
/// Its lifecycle is a subscriber's (`lifecycle`): `initial` (live) until the computed value
/// goes, then disposed, and its queued jobs; it never runs.
final class _WatcherNode: _SubscriberNode, @unchecked Sendable {
    /// What Observation sees of the computed value.
    let subject = _ObservationSubject()
    /// The computed value's version when Observation was last told (or first read it).
    var reportedVersion = 0

    init(origin: _Origin) {
        super.init(kind: .watcher, origin: origin)
    }

    /// Marks the watcher disposed, when its computed value goes; the caller then
    /// unlinks it. If jobs for it are still queued, it holds itself until they are done, since
    /// they do not retain it: held now, under the lock (a retain runs no user code).
    func markDisposed(_ held: borrowing _HeldLock) {
        if held[lifecycle: self].cancel() == .dispose(holdingForQueuedJobs: true) { holdSelf(held) }
    }

    /// Brings the computed value up to date; if it changed since the registrar was
    /// last told, returns the subject to tell.
    func changedObservationSubject(_ held: borrowing _HeldLock) -> _Ref<_ObservationSubject>? {
        guard !held[isDisposed: self], !held[sources: self].isEmpty else { return nil }
        let target = held[sources: self][0].derivedRef
        graphRef.with { graph in
            target.with { graph.refresh($0, held) }
        }
        let version = target.with { held[version: $0] }
        guard version != reportedVersion else { return nil }
        reportedVersion = version
        return _Ref(subject)
    }
}

extension _Node {
    /// Ends a read of this computed value that no derivation or reaction tracked, under `held`,
    /// which it releases: see `_Graph._finishUntrackedComputedRead`.
    @inlinable
    final func _finishUntrackedComputedRead(_ held: consuming _HeldLock) {
        graphRef.with(handing: held) { $0._finishUntrackedComputedRead(self, $1) }
    }

    /// Arms this computed value after a read an Observation scope recorded, and registers the
    /// access (lock released; see `_Graph._endUntrackedComputedRead`).
    @inlinable
    final func _armRecordedComputedRead() {
        graphRef.with { $0._armRecordedComputedRead(self) }
    }
}

extension _Graph {
    /// Ends a read of the computed value `node` that no derivation or reaction tracked, under
    /// `held`, which it releases: registers the access with Observation through the node's
    /// watcher if it has one; else, only if an Observation scope records the read, arms the
    /// node (`armObservation`) and registers it (see `finishUntrackedRead`).
    @usableFromInline
    final func _finishUntrackedComputedRead(_ node: _Node, _ held: consuming _HeldLock) {
        let derived = _downcast(node, to: _DerivedNode.self)
        let armed = held[hasWatcher: derived] ? Self.subject(of: armObservation(derived, held)) : nil
        finishUntrackedRead(held, armed: armed) { held in Self.subject(of: armObservation(derived, held)) }
    }

    /// `_Node._armRecordedComputedRead`'s work: `armRecordedRead` for a read the probe found
    /// recorded, once `_endUntrackedComputedRead` released the lock.
    @usableFromInline
    final func _armRecordedComputedRead(_ node: _Node) {
        let derived = _downcast(node, to: _DerivedNode.self)
        armRecordedRead { held in Self.subject(of: armObservation(derived, held)) }
    }

    /// The subject of `watcher`, kept alive by the watcher (which the graph's `watchers` keeps
    /// for the node).
    private static func subject(of watcher: _Ref<_WatcherNode>) -> _Ref<_ObservationSubject> {
        watcher.with { .init($0.subject) }
    }

    /// Called under the lock by a read an Observation scope recorded: every later change of
    /// the computed value `node` is reported to Observation (the watcher stays armed; see
    /// `_WatcherNode`). Returns the watcher, which `watchers` keeps alive for the node. Also
    /// finds the watcher of an armed node.
    private func armObservation(_ node: _DerivedNode, _ held: borrowing _HeldLock) -> _Ref<_WatcherNode> {
        if held[hasWatcher: node] { return state(held).watchers[ObjectIdentifier(node)]! }
        // The read that arms it released the lock before: a write since may have left the node
        // stale, and a write's mark stops at a stale node, so it would never reach a watcher
        // linked now. Brought up to date first, the node is fresh when the watcher links to it.
        refresh(node, held)
        let watcher = _WatcherNode(origin: node.origin)
        held[sources: watcher].append(_Edge(retaining: node, version: held[version: node]))
        held[sources: watcher][0].slot = subscribe(watcher, to: node, held)
        watcher.reportedVersion = held[version: node]
        let created = _Ref(retaining: watcher)
        state(held).watchers[ObjectIdentifier(node)] = created
        held[hasWatcher: node] = true
        return created
    }
}
