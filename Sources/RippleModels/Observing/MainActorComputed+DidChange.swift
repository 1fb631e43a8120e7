import Ripple

extension MainActorComputed {
    /// Calls `handler` on the main actor with the new value after each change (and at once
    /// with the current value when `withCurrent` is set): ``ObservableValue``'s
    /// `didChange(withCurrent:handler:)` for a main-actor value.
    ///
    /// A `MainActorComputed` is not written, so its updates are its changes: the handler runs
    /// once per change of the value, as the value's equality decides.
    ///
    /// ```swift
    /// let badge = model.remaining.didChange(withCurrent: true) { count in
    ///     badgeLabel.text = "\(count)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called on the main actor, untracked and owning nothing it creates.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released. It does
    ///   not keep this value alive.
    public func didChange(withCurrent: Bool = false, handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        didChange(withCurrent: withCurrent) { _, new, _ in handler(new) }
    }

    /// Calls `handler` on the main actor with the value before and after each change (with
    /// `withCurrent`, at once, with the current value as both): the two-value `didChange` of
    /// bindings and observable values, for a main-actor value.
    ///
    /// ```swift
    /// let log = model.remaining.didChange { old, new in print("\(old) → \(new)") }
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
        didChange(withCurrent: withCurrent) { old, new, _ in handler(old, new) }
    }

    /// Calls `handler` on the main actor with the value before and after each change, and
    /// whether this is the call for the current value (with `withCurrent`, at once, with the
    /// current value as both old and new).
    ///
    /// ```swift
    /// let log = model.remaining.didChange { old, new, _ in print("\(old) → \(new)") }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with `isCurrent` true.
    ///   - handler: Called on the main actor with the old and the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        withCurrent: Bool = false,
        _ handler: @escaping @MainActor (_ old: Value, _ new: Value, _ isCurrent: Bool) -> Void
    ) -> Subscription {
        let previous = _MainActorPrevious<Value>()
        return observeOnMainActor(owner: self, isolation: MainActor.shared) { computed in
            let new = computed.value
            let old = previous.value
            previous.value = new
            withoutOwner {
                untracked {
                    if let old {
                        handler(old, new, false)
                    } else if withCurrent {
                        handler(new, new, true)
                    }
                }
            }
        }
    }
}

/// The value a main-actor handler saw last: read and written only by its reaction, on the
/// main actor.
@MainActor
private final class _MainActorPrevious<Value> {
    var value: Value?
}
