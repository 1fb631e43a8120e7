import Ripple
import RippleModels

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with the old and the new value after every update, and, when
    /// `options` ask for it, at once with `nil` and the current value (Fisticuffs'
    /// `subscribe`).
    ///
    /// ```swift
    /// let name = Stored("")
    /// let subscription = name.subscribe(.notifyingOnSubscription) { old, new in
    ///     print(old ?? "(none)", "→", new)       // prints "(none) → "
    /// }
    /// name.value = "Ada"                          // prints " → Ada"
    /// ```
    ///
    /// An update is a write, even of an equal value, as for `didUpdate`; a `Computed`'s
    /// updates are its changes. The handler runs after the update, with the graph consistent;
    /// for a call before an assignment, see ``WritableComputed/willChange(_:)`` and
    /// ``ObservableArray/willChange(_:)``.
    ///
    /// - Parameters:
    ///   - options: Whether to call the handler at once too.
    ///   - handler: Called with the value before the update (`nil` for the call on
    ///     subscription) and after it.
    /// - Returns: A subscription that stops the handler when cancelled or released.
    public func subscribe(
        _ options: SubscriptionOptions = .afterChange,
        _ handler: @escaping @Sendable (_ old: Value?, _ new: Value) -> Void
    ) -> Subscription {
        guard options.notifyOnSubscription else {
            return didUpdate { old, new in handler(old, new) }
        }
        let isFirst = _Box(true)
        return didUpdate(withCurrent: true) { old, new in
            handler(isFirst.exchange(false) ? nil : old, new)
        }
    }
}
