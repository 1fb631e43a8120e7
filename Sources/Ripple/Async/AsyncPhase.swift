/// Where an ``AsyncComputed`` value is: not started, loading, settled on a value, or failed.
///
/// While loading, and after a failure, the last settled value stays available as ``latest``,
/// so a view can keep showing the previous results while new ones load (Solid's `latest`).
public enum AsyncPhase<Success> {
    /// Nothing started yet: the value was never read or observed, or ``AsyncComputed/cancel()``
    /// stopped it before its first read.
    case idle
    /// The operation is running; `latest` is the last value it settled on, if any.
    case loading(latest: Success?)
    /// The operation's last run returned this value.
    case value(Success)
    /// The operation's last run threw; `latest` is the last value it settled on, if any.
    case failure(any Error, latest: Success?)

    /// The last settled value: the value, or the one kept while loading or after a failure.
    public var latest: Success? {
        switch self {
        case .idle: nil
        case .loading(let latest): latest
        case .value(let value): value
        case .failure(_, let latest): latest
        }
    }

    /// Whether the operation is running.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The value of a run that returned one (not while loading or failed).
    public var value: Success? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error of a run that threw.
    public var error: (any Error)? {
        if case .failure(let error, _) = self { return error }
        return nil
    }
}

extension AsyncPhase: Sendable where Success: Sendable {}
