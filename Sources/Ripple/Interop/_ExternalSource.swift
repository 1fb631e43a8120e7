import Observation
import _RippleRef

/// Internal: what a derivation or reaction read of Observation models (`@Observable`
/// properties) inside ``tracked(_:)``, as one source of that node.
///
/// Each node that opens a tracked scope owns one (`_Graph.externalSources`) and records it as
/// a source, like a ``Stored`` it read. Its registrations with Observation call
/// ``observationWillChange()``, which "writes" it: a new version, then the usual propagation, so
/// the node is marked stale and the reactions downstream are queued, glitch-free, as for any
/// write.
///
/// Observation cancels a registration only when it fires, and a node is re-evaluated for
/// Ripple's reasons too, so each evaluation's registrations also register with a fresh
/// `registration` subject; the next evaluation retires it (`_Graph.retire`): telling it of a
/// change cancels them all, so registrations do not pile up in the models' registrars. When an
/// enclosing Observation scope recorded them too (`isSharedWithEnclosingScope`), they are left
/// to fire on their own instead, and report nothing then.
final class _ExternalSource: _Node, @unchecked Sendable {
    /// Every registration made by the current evaluation's tracked scopes also registered with
    /// this subject; `nil` before the first scope (lock held to touch).
    fileprivate var registration: _ObservationSubject?
    /// The evaluation or run (its tracking id, `_Tracking.id`) that `registration` belongs to
    /// (lock held to touch).
    fileprivate var registrationEvaluation = 0
    /// Changes Observation reported to this source, cancellations left out (lock held to
    /// touch; for tests: registrations do not pile up).
    private(set) var changesReported = 0

    /// Where it came from: the node whose reads it stands for.
    private let storedOrigin: _OriginStorage

    override func _origin() -> _Origin { storedOrigin.origin }

    init(of target: _Node) {
        storedOrigin = _OriginStorage(
            _Origin(name: "tracked { } reads of \(target.debugLabel)", fileID: #fileID, line: #line))
        super.init(kind: .stored)
    }

    /// Observation's `onChange` for this node's registrations: a property read inside
    /// ``tracked(_:)`` is about to change. Called on the mutating thread, before the new value
    /// is stored (Observation reports `willSet`), with no lock of Ripple's held unless a
    /// derivation on this thread made the change.
    ///
    /// The node is invalidated as a write would invalidate it, at the first moment it can be:
    /// - inside a reaction or change handler on this thread: queued like a write made there, and
    ///   applied after the current round (so after the mutation);
    /// - inside a ``batch(_:)`` on this thread: staged like a write made there, and applied with
    ///   the batch's writes when it ends (reads inside the batch see it at once);
    /// - otherwise: at once, so a read after the mutation re-evaluates; the reactions it queues run
    ///   from a task, once the mutation is done (on the main actor when the change was made
    ///   there), since running them now would show them the old value;
    /// - from inside a derivation on this thread (a derivation must not change anything, but an
    ///   `@Observable` may be released there): as above, once the lock is released.
    func observationWillChange() {
        let context = _ThreadContext.current
        // Its own retired registrations, cancelled on purpose (see `_Graph.retire`).
        if context.cancellingObservationRef?.refers(to: self) == true { return }
        let graph = graphRef.object
        let held = graph.takeLock()
        if graph.isDeriving(on: context, held) {
            // Reported again once the lock is released, when the change is done.
            graph.afterUnlock(.change(self), held)
            held.release(graph)
            return
        }
        changesReported &+= 1
        switch context.writes.route {
        case .queue:
            held.release(graph)
            graph.queueWrite(context) { [self] in
                graph.withLock { held in changeLocked(graph, context, held) }
            }
            return
        case .stage:
            stageLocked(graph, context, held)
            held.release(graph)
            return
        case .apply:
            break
        }
        // The jobs this change queues are set apart: they run once the mutation is done.
        let saved = context.jobs.take()
        changeLocked(graph, context, held)
        let jobs = context.jobs.take()
        context.jobs.restore(saved)
        held.release(graph)
        if !jobs.isEmpty { _PendingJobs(jobs).deliverAfterCurrentWork() }
    }

    /// Records the change in the batch open on this thread, like a staged write: it
    /// is applied with the batch's writes when the batch ends (after the mutation), and until
    /// then the batch's own reads of the values that depend on it are derived in its view.
    private func stageLocked(_ graph: _Graph, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        // The batch's sole write, if it kept one, comes first (see `_SoleWrite`).
        graph.stageSoleWrite(of: context, held)
        let staging = context.staging
        staging.generation &+= 1
        if staging.isStaged(self) { return }
        if !staging.isActive { graph.stagingThreads += 1 }
        staging.append(self) { node, _, context, held in
            context.with { context in
                _downcast(node, to: _ExternalSource.self).changeLocked(
                    node.graphRef.object, context, held)
            }
        }
    }

    /// Gives the source a new version and marks everything live downstream of it stale, queuing
    /// its reactions into `context`.
    private func changeLocked(_ graph: _Graph, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        held[version: self] = graph.makeID(held)
        graph.state(held).epoch &+= 1
        graph.propagate(from: self, into: context, held)
    }

}

/// Jobs queued by a change that Observation reported before it was made, carried to a task
/// that delivers them once the mutating code has moved on.
///
/// The jobs hold what a delivery queue holds (see `_Job`): a subscriber disposed meanwhile
/// keeps itself alive until its job is done.
final class _PendingJobs: @unchecked Sendable {
    private var jobs: _Buffer<_Job>

    init(_ jobs: consuming _Buffer<_Job>) {
        self.jobs = jobs
    }

    /// Delivers the jobs from a task: on the main actor when called there (after the main
    /// actor's current work, which made the change), else on the global executor.
    func deliverAfterCurrentWork() {
        if _isOnMainActor() {
            Task { @MainActor in self.deliver() }
        } else {
            Task { self.deliver() }
        }
    }

    /// Hands the jobs to this thread's delivery queue and runs them.
    private func deliver() {
        let context = _ThreadContext.current
        let taken = jobs.take()
        for index in 0..<taken.count { context.jobs.append(taken[index]) }
        _graph.deliver(context)
    }
}

extension _Graph {
    /// Opens a tracked scope (see ``tracked(_:)``) for the derivation or reaction running on this
    /// thread. Returns its external source and the subject its registrations must also register
    /// with, or `nil` when nothing here is tracked (top level, `untracked { }`, a batch's private
    /// evaluation) or a scope of the same node is already open (it collects the reads).
    func openObservationScope(_ context: _ThreadContext, isEnclosed: Bool) -> (
        source: _ExternalSource, registration: _ObservationSubject
    )? {
        let held = takeLock()
        let opened = openObservationScope(context, isEnclosed: isEnclosed, held)
        held.release(self)
        return opened
    }

    /// `openObservationScope(_:isEnclosed:)` under `held`.
    private func openObservationScope(
        _ context: _ThreadContext, isEnclosed: Bool, _ held: borrowing _HeldLock
    ) -> (source: _ExternalSource, registration: _ObservationSubject)? {
        let targetRef: _Ref<_DerivedNode>
        if let evaluating = state(held).evaluatingRef {
            targetRef = evaluating
        } else if context.untrackedDepth == 0, context.privateEvaluationRef == nil, let reaction = context.reactionRef {
            targetRef = reaction
        } else {
            return nil
        }
        let target = targetRef.object
        let source: _ExternalSource
        if target.hasExternalSource, let existing = state(held).externalSources[ObjectIdentifier(target)] {
            if _Ref(existing).address == context.observationScopeRef?.address { return nil }
            source = existing
        } else {
            source = _ExternalSource(of: target)
            state(held).externalSources[ObjectIdentifier(target)] = source
            target.hasExternalSource = true
        }
        let evaluationID: Int
        if target.kind == .computed {
            track(source, into: target, held)
            evaluationID = state(held).evaluation.id
        } else {
            track(source, intoRunOf: _downcast(target, to: _SubscriberNode.self), context, held)
            evaluationID = context.runTracking.id
        }
        if source.registrationEvaluation == evaluationID, let current = source.registration {
            if isEnclosed { current.isSharedWithEnclosingScope = true }
            return (source, current)
        }
        // The first scope of a new evaluation: the previous evaluation's registrations go.
        if let previous = source.registration { retire(previous, of: source, held) }
        let fresh = _ObservationSubject()
        fresh.isSharedWithEnclosingScope = isEnclosed
        source.registration = fresh
        source.registrationEvaluation = evaluationID
        return (source, fresh)
    }

    /// Ripple reads on this thread stop registering with Observation (lock released): an
    /// `untracked { }` begins inside a `tracked { }`.
    func hideReadsFromObservation(_ context: _ThreadContext) {
        context.hidesReads += 1
        withLock { readsHidden += 1 }
    }

    /// Ends `hideReadsFromObservation` (lock released).
    func showReadsToObservation(_ context: _ThreadContext) {
        withLock { readsHidden -= 1 }
        context.hidesReads -= 1
    }

    /// Whether a read on this thread that no Ripple reader tracked must not register with
    /// Observation: it is inside an `untracked { }` within a `tracked { }`.
    @inline(__always)
    func hidesReadsFromObservation(_ held: borrowing _HeldLock) -> Bool {
        readsHidden != 0 && _ThreadContext.current.hidesReads > 0
    }

    /// The external source of `node`, if it has one.
    func externalSource(of node: _Node, _ held: borrowing _HeldLock) -> _ExternalSource? {
        node.hasExternalSource ? state(held).externalSources[ObjectIdentifier(node)] : nil
    }

    /// Forgets the external source of a node being freed, and cancels the registrations its
    /// last evaluation left with Observation (lock released).
    func dropExternalSource(of node: _Node) {
        let dropped = withLock { held -> (_ExternalSource, _ObservationSubject?)? in
            guard let source = state(held).externalSources.removeValue(forKey: ObjectIdentifier(node)) else {
                return nil
            }
            let registration = source.registration
            source.registration = nil
            // Left to fire on its own when an enclosing scope shares it (see `retire`).
            return (source, registration?.isSharedWithEnclosingScope == true ? nil : registration)
        }
        guard let (source, registration) = dropped, let registration else { return }
        _RetiredRegistration(sourceRef: .init(source), registration: registration).cancel(.current)
    }

    /// Cancels, once the lock is released, every Observation registration made by an earlier
    /// evaluation of `source`'s node: telling `registration` of a change makes each
    /// of them fire (doing nothing: `context.cancellingObservationRef`) and cancel itself.
    /// Deferred because it must not run under the lock.
    ///
    /// Not when an enclosing Observation scope recorded the registrations (a SwiftUI body, a
    /// `withObservationTracking`, the `tracked { }` of another node that evaluated this one):
    /// Observation merges a nested scope's accesses into the enclosing one, so that scope is
    /// registered with `registration` too, and telling it would tell that scope of a change
    /// nothing made. Only public API is at hand, and it cancels a registration only by firing
    /// it, so those registrations stay until a model property they read changes (then they fire
    /// once, and report nothing: `registration` is released, see ``tracked(_:)``), or until
    /// the model goes. One set per evaluation made inside another scope: a node read in a
    /// SwiftUI body is evaluated there once, and afterwards by its watcher, outside any scope.
    private func retire(_ registration: _ObservationSubject, of source: _ExternalSource, _ held: borrowing _HeldLock) {
        if registration.isSharedWithEnclosingScope { return }
        afterUnlock(.cancel(_RetiredRegistration(sourceRef: .init(source), registration: registration)), held)
    }

    /// Queues Observation work for once the lock is released.
    func afterUnlock(_ work: _ObservationWork, _ held: borrowing _HeldLock) {
        state(held).observationWork.append(work)
        // Keeps the source alive until then, and makes the release that follows the outermost
        // unlock run (see `unlockReleasing`).
        releaseAfterUnlock(.init(retaining: work.source), held)
    }
}

/// Observation work that must not run under the graph's lock (see `_Graph.observationWork`).
/// The source is kept alive by a reference in `releasedUnderLock`.
enum _ObservationWork {
    /// Cancel an earlier evaluation's registrations: telling them of a change may run other
    /// code's `onChange` (a SwiftUI view's, merged into them).
    case cancel(_RetiredRegistration)
    /// Report a change that Observation reported while a derivation ran on this thread.
    case change(_ExternalSource)

    var source: _ExternalSource {
        switch self {
        case .cancel(let retired): retired.sourceRef.object
        case .change(let source): source
        }
    }

    /// Does the work (lock released).
    func perform(_ context: _ThreadContext) {
        switch self {
        case .cancel(let retired): retired.cancel(context)
        case .change(let source): source.observationWillChange()
        }
    }
}

/// A registration subject to tell, once the lock is released (see `_Graph.retire`).
struct _RetiredRegistration {
    let sourceRef: _Ref<_ExternalSource>
    let registration: _ObservationSubject

    /// Cancels the registrations (lock released).
    func cancel(_ context: _ThreadContext) {
        let saved = context.cancellingObservationRef
        context.cancellingObservationRef = sourceRef
        registration.notifyChange()
        context.cancellingObservationRef = saved
    }
}
