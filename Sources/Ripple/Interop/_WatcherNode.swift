/// Reports a ``Computed`` value's changes to the Observation framework.
///
/// Created by the first read that no Ripple reader tracked and that an Observation scope
/// recorded (a SwiftUI body, or `withObservationTracking`; see `_observationTracksThisRead`),
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
/// Its lifecycle is the part every subscriber has (`subscriber`: live until the computed value
/// goes, and its queued jobs).
final class _WatcherNode: _SubscriberNode, @unchecked Sendable {
    /// What Observation sees of the computed value.
    let subject = _ObservationSubject()
    /// The computed value's version when Observation was last told (or first read it).
    @exclusivity(unchecked) var reportedVersion = 0

    init(origin: _Origin) {
        super.init(kind: .watcher, origin: origin)
    }

    /// Marks the watcher disposed (lock held), when its computed value goes; the caller then
    /// unlinks it. If jobs for it are still queued, it holds itself until they are done, since
    /// they do not retain it: retained now, under the lock (a retain runs no user code).
    func markDisposed() {
        if subscriber.dispose() == .holdForQueuedJobs {
            _ = Unmanaged.passUnretained(self).retain()
        }
    }

    /// Brings the computed value up to date (lock held); if it changed since the registrar was
    /// last told, returns the subject to tell.
    func changedObservationSubject() -> Unmanaged<_ObservationSubject>? {
        guard !isDisposed, !sources.isEmpty else { return nil }
        let target = sources[0].derivedRef
        graphRef._withUnsafeGuaranteedRef { graph in
            target._withUnsafeGuaranteedRef { graph.refresh($0) }
        }
        let version = target._withUnsafeGuaranteedRef { $0.version }
        guard version != reportedVersion else { return nil }
        reportedVersion = version
        return Unmanaged.passUnretained(subject)
    }
}
