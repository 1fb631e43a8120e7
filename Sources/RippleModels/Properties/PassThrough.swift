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
///
/// Like Yoyo's pass-through properties, it is cut off by equality: a write of an equal value
/// to the source (even one that notifies, such as a `Stored(_, equals: nil)`) does not reach
/// its readers. Pass `equals:` to compare otherwise (Yoyo's `changePredicate:`).
public final class PassThrough<Value>: Readable, ObservableValue, @unchecked Sendable {
    // `@unchecked`: the stored closures and node are `Sendable`; `Computed` is not declared so
    // for a value that is not (it is thread-safe for any value: readers get copies).
    private let current: Computed<Value>
    private let readUpdates: @Sendable () -> Value

    /// Creates a view of `source`, cut off by `==` when the value is `Equatable`.
    public convenience init(_ source: some ObservableValue<Value> & Sendable) {
        self.init(source, comparingWith: _equality(for: Value.self))
    }

    /// Creates a view of `source` whose readers run again only when `isEqual` says the value
    /// changed (Yoyo's `changePredicate:`, inverted: it says when two values are the same).
    ///
    /// ```swift
    /// let name = PassThrough(profile.name, equals: { $0.lowercased() == $1.lowercased() })
    /// ```
    ///
    /// - Parameters:
    ///   - source: The value to show.
    ///   - isEqual: When two values count as the same; `nil`: every update of the source
    ///     reaches the readers.
    public convenience init(
        _ source: some ObservableValue<Value> & Sendable, equals isEqual: (@Sendable (Value, Value) -> Bool)?
    ) {
        self.init(source, comparingWith: isEqual)
    }

    private init(
        _ source: some ObservableValue<Value> & Sendable, comparingWith isEqual: (@Sendable (Value, Value) -> Bool)?
    ) {
        current = Computed(name: "PassThrough", equals: isEqual) { source.value }
        readUpdates = { source._readForUpdate() }
    }

    /// The source's current value; reading it tracks the source.
    public var value: Value { current.value }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { readUpdates() }
}
