/// Lists effects for `Effect.concat { }` and `Effect.merge { }`,
/// with `if`, `switch`, optionals and `for` loops.
///
/// ```swift
/// return .merge {
///     Effect.send(.started)
///     if let id = state.selection { Effect.send(.load(id)) }
///     for id in state.pending { Effect.send(.retry(id)) }
/// }
/// ```
@resultBuilder
public enum EffectBuilder<Action> {
    /// The effects of a block, in order.
    public static func buildBlock(_ components: [Effect<Action>]...) -> [Effect<Action>] {
        components.flatMap { $0 }
    }

    /// One effect.
    public static func buildExpression(_ effect: Effect<Action>) -> [Effect<Action>] {
        [effect]
    }

    /// An optional effect: none when `nil`.
    public static func buildExpression(_ effect: Effect<Action>?) -> [Effect<Action>] {
        effect.map { [$0] } ?? []
    }

    /// The effects of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ component: [Effect<Action>]?) -> [Effect<Action>] {
        component ?? []
    }

    /// The effects of the first branch of an `if`–`else` or `switch`.
    public static func buildEither(first component: [Effect<Action>]) -> [Effect<Action>] {
        component
    }

    /// The effects of the second branch of an `if`–`else` or `switch`.
    public static func buildEither(second component: [Effect<Action>]) -> [Effect<Action>] {
        component
    }

    /// The effects of a `for` loop, in order.
    public static func buildArray(_ components: [[Effect<Action>]]) -> [Effect<Action>] {
        components.flatMap { $0 }
    }

    /// The effects of an `if #available` block.
    public static func buildLimitedAvailability(_ component: [Effect<Action>]) -> [Effect<Action>] {
        component
    }
}
