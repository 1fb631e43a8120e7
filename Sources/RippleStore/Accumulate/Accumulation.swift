/// The parts an `accumulate { }` closure builds, each at its place in the closure (built by
/// ``AccumulationSinkBuilder``; you do not make one yourself).
public struct Accumulation<State> {
    var parts: [_AccumulationPart<State>]

    /// The parts, placed under `index`.
    func placed(at index: Int) -> Accumulation {
        Accumulation(
            parts: parts.map { part in
                var placed = part
                placed.path.insert(index, at: 0)
                return placed
            })
    }

    /// Runs every part on `state`, with what each remembered from the previous delivery, and
    /// keeps what they remember now (forgetting the parts not built this time).
    func run(on state: State, memory: inout [[Int]: _AccumulationMemory]) {
        var next: [[Int]: _AccumulationMemory] = [:]
        for part in parts {
            next[part.path] = part.run(state, memory[part.path])
        }
        memory = next
    }
}

/// The result builder of `accumulate { }` closures: each `ifChanged(…)` part is kept at its
/// place; `if`, `if`-`else`, `switch` and `for` are allowed.
@resultBuilder
public enum AccumulationSinkBuilder<State> {
    /// A part.
    public static func buildExpression<Value>(_ part: AccumulationIfChanged<State, Value>) -> Accumulation<State> {
        Accumulation(parts: [part._part])
    }

    /// Parts built elsewhere.
    public static func buildExpression(_ parts: Accumulation<State>) -> Accumulation<State> {
        parts
    }

    /// The parts of a block, in order.
    public static func buildBlock(_ components: Accumulation<State>...) -> Accumulation<State> {
        Accumulation(parts: components.enumerated().flatMap { index, component in component.placed(at: index).parts })
    }

    /// An `if` without `else`.
    public static func buildOptional(_ component: Accumulation<State>?) -> Accumulation<State> {
        component?.placed(at: 0) ?? Accumulation(parts: [])
    }

    /// The first branch of an `if`-`else` or a `switch`.
    public static func buildEither(first component: Accumulation<State>) -> Accumulation<State> {
        component.placed(at: 0)
    }

    /// The second branch of an `if`-`else` or a `switch`.
    public static func buildEither(second component: Accumulation<State>) -> Accumulation<State> {
        component.placed(at: 1)
    }

    /// The iterations of a `for` loop, each at its index.
    public static func buildArray(_ components: [Accumulation<State>]) -> Accumulation<State> {
        Accumulation(parts: components.enumerated().flatMap { index, component in component.placed(at: index).parts })
    }

    /// An `if #available` block.
    public static func buildLimitedAvailability(_ component: Accumulation<State>) -> Accumulation<State> {
        component
    }
}
