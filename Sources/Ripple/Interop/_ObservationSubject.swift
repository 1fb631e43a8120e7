import Observation

/// The Observation framework's view of one Ripple node.
///
/// Observation only needs a registrar and a key path to connect an access with a later
/// change; the subject passed along is not used for anything but its type. Each ``Stored``
/// and each ``Computed`` read outside Ripple's own tracking owns one of these: its accesses and
/// changes go through the non-generic key path `\.value` below, so no generic key path is
/// built per read and the node needs no weak reference to itself.
/// The one key path every subject reports: built once, not on every access.
let _subjectValueKeyPath: any KeyPath<_ObservationSubject, Int> & Sendable = \.value

final class _ObservationSubject: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    /// For a `tracked { }` evaluation's registration subject (see `_ExternalSource`): whether
    /// an enclosing Observation scope recorded the accesses to it, so that telling it of a
    /// change would tell that scope too (graph lock held to touch; unused for a node's subject).
    var isSharedWithEnclosingScope = false

    /// Never read: the key path's target.
    var value: Int { 0 }

    init() {}

    /// Registers an access with the `withObservationTracking` (or SwiftUI body) in progress.
    func access() {
        registrar.access(self, keyPath: _subjectValueKeyPath)
    }

    /// Registers an access through another key path (the probe's, see `_ObservationProbe`).
    func access(through keyPath: KeyPath<_ObservationSubject, Int>) {
        registrar.access(self, keyPath: keyPath)
    }

    /// Tells Observation the value changed (called with Ripple's lock released).
    func notifyChange() {
        registrar.willSet(self, keyPath: _subjectValueKeyPath)
        registrar.didSet(self, keyPath: _subjectValueKeyPath)
    }
}
