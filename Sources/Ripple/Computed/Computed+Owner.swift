/// Computed values derived from an object they hold weakly: derived values stored in the
/// class they derive from.
extension Computed {
    /// Creates a computed value derived from `owner`, which it holds weakly, counting every
    /// re-evaluation as a change.
    ///
    /// The same as the `Equatable` form of `Computed(owner:_:)`, for values that are not
    /// `Equatable`.
    ///
    /// - Parameters:
    ///   - owner: The object the value is derived from, passed to `derive`; held weakly.
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, called with the owner. Reads inside it are tracked.
    public convenience init<Owner: AnyObject & Sendable>(
        owner: Owner,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable (Owner) -> Value
    ) {
        self.init(
            node: _OwnedDerivation.node(
                owner: owner,
                isEqual: nil,
                origin: _Origin(name: name, fileID: file, line: line),
                derive
            ))
    }
}

extension Computed where Value: Equatable {
    /// Creates a computed value derived from `owner`, which it holds weakly, cut off by `==`.
    ///
    /// Use it for a derived value stored in the class it derives from. A derivation that
    /// captures `self` keeps the object alive for as long as the value lives, and the object
    /// holds the value: neither is ever freed. This one receives the owner as its argument
    /// instead, so the object is freed when its last owner lets it go.
    ///
    /// ```swift
    /// final class Cart: SendableModel, @unchecked Sendable {
    ///     @Observed var lines: [Line] = []
    ///     private(set) lazy var total = Computed(owner: self) { cart in   // not Computed { self.… }
    ///         cart.lines.reduce(0) { $0 + $1.price }
    ///     }
    ///     init() { _ = total }   // created before the cart is shared with other threads
    /// }
    /// ```
    ///
    /// Once the owner is gone, the value keeps the last value it derived and no longer
    /// depends on anything: it never changes again. Reading it for the first time after the
    /// owner is gone stops the program with a message naming it: there is no value to keep.
    ///
    /// A class whose state is all in `let` properties may capture those instead of `self`
    /// (`let lines = self.lines; total = Computed { lines.value… }`), which makes no cycle
    /// either. For a `@MainActor` class, use `MainActorComputed(owner:_:)`.
    ///
    /// - Parameters:
    ///   - owner: The object the value is derived from, passed to `derive`; held weakly.
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, called with the owner. Reads inside it are tracked.
    public convenience init<Owner: AnyObject & Sendable>(
        owner: Owner,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable (Owner) -> Value
    ) {
        self.init(
            node: _OwnedDerivation.node(
                owner: owner,
                isEqual: { $0 == $1 },
                origin: _Origin(name: name, fileID: file, line: line),
                derive
            ))
    }
}
