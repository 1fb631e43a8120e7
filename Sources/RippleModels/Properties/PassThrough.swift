import Ripple

/// A read-only view of another value that hides where it comes from (Yoyo's
/// `PassThroughProperty`).
///
/// Expose a collaborator's value without exposing the collaborator:
///
/// ```swift
/// final class HeaderViewModel {
///     private let session: Session
///     let isLoggedIn: PassThrough<Bool>
///     init(session: Session) {
///         self.session = session
///         isLoggedIn = PassThrough(session.isLoggedIn)
///     }
/// }
/// ```
public final class PassThrough<Value>: Readable, ObservableValue, Sendable {
    private let read: @Sendable () -> Value
    private let readUpdates: @Sendable () -> Value

    /// Creates a view of `source`.
    public init(_ source: some ObservableValue<Value> & Sendable) {
        read = { source.value }
        readUpdates = { source._readForUpdate() }
    }

    /// The source's current value; reading it tracks the source.
    public var value: Value { read() }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { readUpdates() }
}
