/// Reports a ``Computed`` value's changes to the Observation framework.
///
/// Created by the first read that no Ripple reader tracked (a SwiftUI body, or
/// `withObservationTracking`), it keeps the computed node live so writes reach it. It is
/// armed by every such read; when a write reaches it armed, it brings the value up to date
/// and, if the value changed, calls the registrar, then waits to be armed again.
final class _WatcherNode: _SubscriberNode, @unchecked Sendable {
    /// What Observation sees of the computed value.
    let subject = _ObservationSubject()
    @exclusivity(unchecked) var isArmed = false
    @exclusivity(unchecked) var armedVersion = 0

    init(origin: _Origin) {
        super.init(kind: .watcher, origin: origin)
    }

    /// Brings the computed value up to date (lock held); if it changed since the watcher was
    /// armed, disarms it and returns the subject to tell.
    func changedObservationSubject() -> Unmanaged<_ObservationSubject>? {
        guard isArmed, !isDisposed, !sources.isEmpty else { return nil }
        let target = sources[0].ref
        graphRef._withUnsafeGuaranteedRef { graph in
            target._withUnsafeGuaranteedRef { graph.refresh($0) }
        }
        guard target._withUnsafeGuaranteedRef({ $0.version }) != armedVersion else { return nil }
        isArmed = false
        return Unmanaged.passUnretained(subject)
    }
}
