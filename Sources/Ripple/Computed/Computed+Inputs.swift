/// Computed values with explicit inputs, in the style of Yoyo's derived properties.
///
/// Each initializer reads its inputs and passes their values to `transform`; the
/// dependencies are exactly the inputs (reads inside `transform` are tracked too).
///
/// ```swift
/// let label = Computed(isLoggedIn, hasClickedTip) { loggedIn, clicked in
///     "\(loggedIn) \(clicked)"
/// }
/// ```
extension Computed {
    /// Creates a computed value from input, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable>(
        _ inputa: A,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value) }
    }

    /// Creates a computed value from input, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable>(
        _ inputa: A,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value) })
    }

    /// Creates a computed value from 2 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable>(
        _ inputa: A, _ inputb: B,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value) }
    }

    /// Creates a computed value from 2 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable>(
        _ inputa: A, _ inputb: B,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value) })
    }

    /// Creates a computed value from 3 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value) }
    }

    /// Creates a computed value from 3 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value) })
    }

    /// Creates a computed value from 4 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value) }
    }

    /// Creates a computed value from 4 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value) })
    }

    /// Creates a computed value from 5 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value) }
    }

    /// Creates a computed value from 5 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value) })
    }

    /// Creates a computed value from 6 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value) }
    }

    /// Creates a computed value from 6 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value) })
    }

    /// Creates a computed value from 7 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value) }
    }

    /// Creates a computed value from 7 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value) })
    }

    /// Creates a computed value from 8 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value) }
    }

    /// Creates a computed value from 8 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value) })
    }

    /// Creates a computed value from 9 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - inputi: The ninth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable, I: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H, _ inputi: I,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value, inputi.value) }
    }

    /// Creates a computed value from 9 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - inputi: The ninth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable, I: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H, _ inputi: I,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value, inputi.value) })
    }

    /// Creates a computed value from 10 inputs, that counts every re-evaluation as a change.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - inputi: The ninth input.
    ///   - inputj: The tenth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable, I: Readable & Sendable, J: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H, _ inputi: I, _ inputj: J,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value, J.Value) -> Value
    ) {
        self.init(name: name, comparingWith: nil, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value, inputi.value, inputj.value) }
    }

    /// Creates a computed value from 10 inputs, cut off by `==`.
    ///
    /// - Parameters:
    ///   - inputa: The first input.
    ///   - inputb: The second input.
    ///   - inputc: The third input.
    ///   - inputd: The fourth input.
    ///   - inpute: The fifth input.
    ///   - inputf: The sixth input.
    ///   - inputg: The seventh input.
    ///   - inputh: The eighth input.
    ///   - inputi: The ninth input.
    ///   - inputj: The tenth input.
    ///   - name: A name used in diagnostics.
    ///   - transform: Derives the value from the inputs' values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init<A: Readable & Sendable, B: Readable & Sendable, C: Readable & Sendable, D: Readable & Sendable, E: Readable & Sendable, F: Readable & Sendable, G: Readable & Sendable, H: Readable & Sendable, I: Readable & Sendable, J: Readable & Sendable>(
        _ inputa: A, _ inputb: B, _ inputc: C, _ inputd: D, _ inpute: E, _ inputf: F, _ inputg: G, _ inputh: H, _ inputi: I, _ inputj: J,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value, J.Value) -> Value
    ) where Value: Equatable {
        self.init(node: Self._equatableNode(name: name, file: file, line: line) { transform(inputa.value, inputb.value, inputc.value, inputd.value, inpute.value, inputf.value, inputg.value, inputh.value, inputi.value, inputj.value) })
    }
}
