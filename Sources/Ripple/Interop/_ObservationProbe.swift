import Observation
import _RippleRef

// How Ripple learns whether a read at the top level is being recorded by
// `withObservationTracking` (or a SwiftUI body), so that only such reads arm a node for
// Observation, and a value read anywhere else stays lazy and costs nothing on later writes.
//
// Observation does not say whether tracking is in progress: its registrar checks a thread-local
// access list that is not public. But when a tracking scope records an access, it stores the
// key path in a set, which hashes it, and hashing a key path hashes its subscript arguments.
// So Ripple registers, before arming anything, an access to a shared probe subject through a key
// path whose subscript argument counts its own hashing on the current thread: the count moves
// if and only if a scope recorded the access. Only public API is used (`ObservationRegistrar`,
// `KeyPath`'s documented `Hashable` conformance), but the set is an implementation detail of
// Observation, so the probe is checked once per process (`_observationProbeWorks`): if a
// recorded access did not hash the argument, Ripple falls back to arming on every top-level
// read, as it did before, which is correct everywhere and only slower.

/// The subscript argument of the probe key path: hashing it counts one recorded access on the
/// current thread.
struct _ObservationProbe: Hashable, Sendable {
    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {
        _ThreadContext.current.observationProbeHits &+= 1
        hasher.combine(0)
    }
}

extension _ObservationSubject {
    /// The probe's key path target (never read).
    subscript(probe probe: _ObservationProbe) -> Int { 0 }
}

/// The probe: its key path, the subject every probe access goes to, and whether it works here.
/// One object behind one global, so that a read reaches all three with one lazy-initialization
/// check.
final class _ProbeState: Sendable {
    /// The probe key path, built once.
    let keyPath: any KeyPath<_ObservationSubject, Int> & Sendable =
        \_ObservationSubject[probe: _ObservationProbe()]
    /// The subject every probe access goes to. A tracking scope that recorded it installs an
    /// observer on it, which goes when that scope's tracking fires or is dropped, like any other.
    let subject = _ObservationSubject()
    /// Whether the probe sees a recorded access on this platform and toolchain: checked once,
    /// with a tracking scope of its own around an access to a subject of its own.
    let works: Bool

    init() {
        let keyPath = keyPath
        let subject = _ObservationSubject()
        let context = _ThreadContext.current
        var recorded = false
        withObservationTracking {
            recorded = Self.isRecorded(subject, keyPath, context)
        } onChange: {
        }
        works = recorded
    }

    /// Registers an access to `subject` through the probe key path; returns whether a tracking
    /// scope recorded it (the probe's argument was hashed on this thread meanwhile).
    @inline(__always)
    static func isRecorded(
        _ subject: _ObservationSubject,
        _ keyPath: KeyPath<_ObservationSubject, Int>,
        _ context: _ThreadContext
    ) -> Bool {
        let before = context.observationProbeHits
        subject.access(through: keyPath)
        return context.observationProbeHits != before
    }
}

/// The probe, unretained (`_Ref`): kept for the life of the process, reached without reference counting.
let _probeRef = _Ref(retaining: _ProbeState())

/// Whether the probe sees recorded accesses here (see `_ProbeState.works`).
var _observationProbeWorks: Bool { _probeRef.with { $0.works } }

/// Whether a read this thread makes now, outside Ripple's tracking, is recorded by an
/// Observation tracking scope (lock released). Always true when the probe cannot tell (see
/// `_observationProbeWorks`), or when the thread asked to arm every read (tests).
///
/// Called only after a read of a node, so the graph and the probe exist, and no global is
/// looked up through its lazy initialisation: the probe through `_createdProbeRef`, the thread's
/// context through `_ThreadContext.existingPointer` (on Apple platforms the key the graph
/// copied, where `currentRef` checks the lazy key's initialisation).
///
/// It asks Observation and changes nothing of Ripple's, so that a function that releases
/// nothing may call it (see `_Graph._endUntrackedComputedRead`). Inside a scope, Observation's
/// registrar retains and releases the key path and its own context (balanced), and may free its
/// own tables as they grow: nothing a caller of Ripple's holds.
///
/// - Complexity: O(1): outside any scope, one thread-local check in Observation.
@inline(__always)
func _observationRecordsThisRead() -> Bool {
    _createdProbeRef.with { probe in
        guard probe.works else { return true }
        let contextRef =
            _ThreadContext.existingRef ?? _ThreadContext.currentRef
        return contextRef.with { context in
            if context.armsEveryTopLevelRead { return true }
            return _ProbeState.isRecorded(probe.subject, probe.keyPath, context)
        }
    }
}

/// Whether an Observation tracking scope records what this thread reads now (lock released):
/// the probe's answer, and `false` when the probe cannot tell (see `_observationProbeWorks`).
/// Used by ``tracked(_:)``, whose own scope's registrations Observation merges into an
/// enclosing one.
func _observationScopeIsOpen(_ context: _ThreadContext) -> Bool {
    _probeRef.with { probe in
        probe.works && _ProbeState.isRecorded(probe.subject, probe.keyPath, context)
    }
}

/// Runs the tests' hook after a read the probe found recorded, before it is armed (see
/// `_ThreadContext.afterTrackedReadProbe`): not when the read is armed only because the probe
/// cannot tell, or because the thread asked to arm every read.
@inline(__always)
func _afterRecordedRead() {
    guard let contextRef = _ThreadContext.existingRef, _createdProbeRef.with({ $0.works }) else { return }
    contextRef.with { context in
        if !context.armsEveryTopLevelRead, let hook = context.afterTrackedReadProbe { hook() }
    }
}

extension _Graph {
    /// Ends a read of a node that no derivation or reaction tracked, under `held`, which it
    /// releases: registers the access with Observation through the node's subject if the node is
    /// `armed`; else, only if an Observation scope records the read (see
    /// `_observationRecordsThisRead`), arms it and registers the access (`armRecordedRead`).
    /// Inside an `untracked { }` within `tracked { }`, nothing is registered.
    ///
    /// The subject must be kept alive by the node: it is used once the lock is released.
    @inline(__always)
    func finishUntrackedRead(
        _ held: consuming _HeldLock,
        armed: _Ref<_ObservationSubject>?,
        arm: (borrowing _HeldLock) -> _Ref<_ObservationSubject>
    ) {
        assertSoleWriteStaged(held)
        let hidden = hidesReadsFromObservation(held)
        held.release(self)
        if hidden { return }
        if let armed {
            armed.with { $0.access() }
            return
        }
        guard _observationRecordsThisRead() else { return }
        armRecordedRead(arm)
    }

    /// Arms a node after a top-level read an Observation scope recorded (lock released): runs
    /// the tests' hook, then `arm` with the lock held, then registers the access through the
    /// subject `arm` returns, which the node must keep alive.
    @inline(__always)
    func armRecordedRead(_ arm: (borrowing _HeldLock) -> _Ref<_ObservationSubject>) {
        _afterRecordedRead()
        withLock { held in arm(held) }.with { $0.access() }
    }
}
