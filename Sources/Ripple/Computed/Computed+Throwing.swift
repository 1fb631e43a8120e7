/// Computed values whose derivation throws: `Computed<Result<Success, Failure>>`.
///
/// The derivation's outcome, value or error, is cached as the computed value's `Result`, so an
/// error is handled by the graph exactly like a value: it is kept until a source changes (the
/// derivation does not run again on each read), readers are glitch-free and run once per write
/// or batch, and the cut-off compares outcomes. These are the same node and the same read paths
/// as any `Computed`: only the derivation wraps the user's closure in `Result(catching:)`, so a
/// value that did not throw costs what a plain one does, and non-throwing `Computed` values are
/// untouched.
extension Computed {
    /// Creates a computed value whose derivation may throw: the value or the error is cached
    /// as a `Result`, and ``get()`` rethrows the error.
    ///
    /// ```swift
    /// let port = Computed { () throws(ConfigError) -> Int in
    ///     guard let port = Int(portText.value) else { throw .notANumber(portText.value) }
    ///     return port
    /// }
    /// port.value            // Result<Int, ConfigError>
    /// try port.get()        // the port, or the cached ConfigError, rethrown
    /// ```
    ///
    /// The error is cached like a value: reading again rethrows it without running the
    /// derivation, until one of the values it read before throwing changes. Those reads are
    /// its dependencies, as for any derivation. Readers are told of a change when the outcome
    /// changes: two equal values, or two errors that compare equal (an `Equatable` error), are
    /// no change; an error that is not `Equatable` counts as a change every time it is thrown
    /// anew, and so does a value that is not `Equatable`.
    ///
    /// Overloads are chosen by what conforms: `Success` and `Failure` both `Equatable`
    /// compares whole outcomes, one of them `Equatable` compares that side only. (This form is
    /// disfavored: a closure that cannot throw makes a plain `Computed`.)
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - derive: The derivation. Reads inside it are tracked; what it throws is cached.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    /// - Complexity: A read costs what a plain `Computed`'s does.
    @_disfavoredOverload
    public convenience init<Success, Failure>(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () throws(Failure) -> Success
    ) where Value == Result<Success, Failure> {
        self.init(name: name, comparingWith: nil, file: file, line: line) {
            Result { () throws(Failure) -> Success in try derive() }
        }
    }

    /// Creates a computed value whose derivation may throw, cut off by equal values; every
    /// error counts as a change (it is not `Equatable`). See the form above.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - derive: The derivation. Reads inside it are tracked; what it throws is cached.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @_disfavoredOverload
    public convenience init<Success: Equatable, Failure>(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () throws(Failure) -> Success
    ) where Value == Result<Success, Failure> {
        self.init(name: name, comparingWith: _sameSuccess, file: file, line: line) {
            Result { () throws(Failure) -> Success in try derive() }
        }
    }

    /// Creates a computed value whose derivation may throw, cut off by equal errors; every
    /// value counts as a change (it is not `Equatable`).
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - derive: The derivation. Reads inside it are tracked; what it throws is cached.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @_disfavoredOverload
    public convenience init<Success, Failure: Equatable>(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () throws(Failure) -> Success
    ) where Value == Result<Success, Failure> {
        self.init(name: name, comparingWith: _sameFailure, file: file, line: line) {
            Result { () throws(Failure) -> Success in try derive() }
        }
    }

    /// Creates a computed value whose derivation may throw, cut off by an equal outcome (an
    /// equal value, or an equal error).
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - derive: The derivation. Reads inside it are tracked; what it throws is cached.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @_disfavoredOverload @inlinable
    public convenience init<Success: Equatable, Failure: Equatable>(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () throws(Failure) -> Success
    ) where Value == Result<Success, Failure> {
        // Compiled for the concrete types at the call site, as the plain `Equatable` form is.
        self.init(
            node: Self._equatableNode(name: name, file: file, line: line) {
                Result { () throws(Failure) -> Success in try derive() }
            })
    }

    /// The value, or the error the derivation threw, rethrown: the typed form of reading a
    /// throwing computed value's ``value``.
    ///
    /// Tracked like ``value`` (a reader depends on this value whether it throws or not).
    ///
    /// - Throws: The error cached from the derivation's last evaluation.
    /// - Complexity: The cost of reading ``value``.
    @inlinable
    public func get<Success, Failure>() throws(Failure) -> Success where Value == Result<Success, Failure> {
        try value.get()
    }
}

/// Outcomes equal when both are equal values; errors always differ.
func _sameSuccess<Success: Equatable, Failure>(_ lhs: Result<Success, Failure>, _ rhs: Result<Success, Failure>) -> Bool
{
    if case .success(let left) = lhs, case .success(let right) = rhs { return left == right }
    return false
}

/// Outcomes equal when both are equal errors; values always differ.
func _sameFailure<Success, Failure: Equatable>(_ lhs: Result<Success, Failure>, _ rhs: Result<Success, Failure>) -> Bool
{
    if case .failure(let left) = lhs, case .failure(let right) = rhs { return left == right }
    return false
}
