/// Computed values with explicit inputs, in the style of Yoyo's derived properties.
///
/// Each initializer reads its inputs and passes their values to `transform`; the
/// dependencies are exactly the inputs (reads inside `transform` are tracked too). Any number
/// of inputs, one or more (parameter packs).
///
/// ```swift
/// let label = Computed(isLoggedIn, hasClickedTip) { loggedIn, clicked in
///     "\(loggedIn) \(clicked)"
/// }
/// ```
extension Computed {
    /// Creates a computed value from its inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - first: The first input.
    ///   - rest: The other inputs, any number of them.
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - transform: Derives the value from the inputs' values, in order.
    /// - Complexity: Each evaluation reads every input once.
    public convenience init<First: Readable & Sendable, each Rest: Readable & Sendable>(
        _ first: First,
        _ rest: repeat each Rest,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (First.Value, repeat (each Rest).Value) -> Value
    ) {
        let inputs = _Inputs(first, repeat each rest)
        self.init(name: name, comparingWith: nil, file: file, line: line) { inputs.apply(transform) }
    }

    /// Creates a computed value from its inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - first: The first input.
    ///   - rest: The other inputs, any number of them.
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - transform: Derives the value from the inputs' values, in order.
    /// - Complexity: Each evaluation reads every input once.
    @inlinable
    public convenience init<First: Readable & Sendable, each Rest: Readable & Sendable>(
        _ first: First,
        _ rest: repeat each Rest,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (First.Value, repeat (each Rest).Value) -> Value
    ) where Value: Equatable {
        let inputs = _Inputs(first, repeat each rest)
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { inputs.apply(transform) })
    }
}

/// The inputs of an explicit-input computed value, kept together so that a closure can capture
/// them (a parameter pack cannot be captured directly).
@usableFromInline
struct _Inputs<First: Readable & Sendable, each Rest: Readable & Sendable>: Sendable {
    @usableFromInline let first: First
    @usableFromInline let rest: (repeat each Rest)

    @inlinable
    init(_ first: First, _ rest: repeat each Rest) {
        self.first = first
        self.rest = (repeat each rest)
    }

    /// Reads every input, in order, and calls `transform` with their values.
    @inlinable
    func apply<Result>(_ transform: (First.Value, repeat (each Rest).Value) -> Result) -> Result {
        transform(first.value, repeat (each rest).value)
    }
}
