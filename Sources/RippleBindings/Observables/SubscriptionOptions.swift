/// How `subscribe(_:_:)` calls its handler (Fisticuffs'
/// `SubscriptionOptions`).
public struct SubscriptionOptions: Sendable, Hashable {
    /// Also call the handler at once, with `nil` as the old value and the current one as the
    /// new.
    public var notifyOnSubscription: Bool

    /// Creates options.
    ///
    /// - Parameter notifyOnSubscription: Also call the handler at once with the current value.
    public init(notifyOnSubscription: Bool = false) {
        self.notifyOnSubscription = notifyOnSubscription
    }

    /// Call the handler only after updates.
    public static let afterChange = SubscriptionOptions()

    /// Call the handler at once with the current value, then after every update.
    public static let notifyingOnSubscription = SubscriptionOptions(notifyOnSubscription: true)
}
