import Ripple

extension MainActorValueBinding where Value: Equatable {
    /// Calls `handler` on the main actor with the new value after each change of the property
    /// (and at once with the current value when `withCurrent` is set): DidUpdate's
    /// `didChange` for a main-actor model's property.
    ///
    /// The handler runs once per change, as the value's equality decides: a write of an equal
    /// value calls nothing. Observe through `MainActorComputed` for a value derived from
    /// several properties.
    ///
    /// ```swift
    /// let badge = model.bindings.count.didChange(withCurrent: true) { count in
    ///     badgeLabel.text = "\(count)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called on the main actor, untracked and owning nothing it creates.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released. It keeps
    ///   the binding, and so the model (a binding holds its model strongly), alive until then:
    ///   a model that stores the subscription of a handler on its own binding keeps itself
    ///   alive; observe its `@Observed` values with `observeOnMainActor(owner:)` instead.
    public func didChange(withCurrent: Bool = false, _ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        didChange(withCurrent: withCurrent) { (_: Value, new: Value) in handler(new) }
    }

    /// Calls `handler` on the main actor with the value before and after each change of the
    /// property (with `withCurrent`, at once, with the current value as both).
    ///
    /// ```swift
    /// let log = model.bindings.count.didChange { old, new in print("\(old) → \(new)") }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with the current value as old and new.
    ///   - handler: Called on the main actor with the old and the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        withCurrent: Bool = false,
        _ handler: @escaping @MainActor (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        let read = read
        let previous = _MainActorLastValue<Value>()
        return observeOnMainActor {
            let new = read()
            let old = previous.value
            previous.value = new
            withoutOwner {
                untracked {
                    if let old {
                        if old != new { handler(old, new) }
                    } else if withCurrent {
                        handler(new, new)
                    }
                }
            }
        }
    }
}

/// The value a main-actor binding's handler saw last: read and written only by its reaction,
/// on the main actor.
@MainActor
private final class _MainActorLastValue<Value> {
    var value: Value?
}
