import Ripple

extension TraceRecorder {
    /// The recorded commits, as their trace lines ("commit app increment: woke 'render'").
    var commitLines: [String] {
        events.filter {
            if case .commit = $0.kind { return true }
            return false
        }.map(\.description)
    }
}
