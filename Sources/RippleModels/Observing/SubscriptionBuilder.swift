import Ripple

/// Builds an array of subscriptions from a list of statements, for `SubscriptionBag`'s
/// `init(_:)` and `insert(_:)` that take a builder.
///
/// ```swift
/// bag.insert {
///     $model.count.didChange { print($0) }
///     $model.name.didUpdate { print($0) }
///     if showsTitle { title.didChange { print($0) } }
/// }
/// ```
@resultBuilder
public enum SubscriptionBuilder {
    /// One subscription.
    public static func buildExpression(_ subscription: Subscription) -> [Subscription] { [subscription] }
    /// Several subscriptions from one expression.
    public static func buildExpression(_ subscriptions: [Subscription]) -> [Subscription] { subscriptions }
    /// The statements of a block.
    public static func buildBlock(_ parts: [Subscription]...) -> [Subscription] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Subscription]?) -> [Subscription] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [Subscription]) -> [Subscription] { part }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [Subscription]) -> [Subscription] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Subscription]]) -> [Subscription] { parts.flatMap { $0 } }
}
