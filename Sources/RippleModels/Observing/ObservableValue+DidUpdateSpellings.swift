import Ripple

// DidUpdate's other spellings of the `didUpdate` family: the full handler
// `(old, new, isCurrent)`, the `handler:` label, key paths into an optional value, and an
// array of key paths.

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with the old value, the new value and whether the call is the one
    /// `withCurrent` asked for (DidUpdate's full handler), on every update, equal values
    /// included.
    ///
    /// ```swift
    /// let observer = $model.count.didUpdate(withCurrent: true) { old, new, isCurrent in
    ///     if !isCurrent { animate(from: old, to: new) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and
    ///     new, and `isCurrent` true.
    ///   - handler: Called with the value before and after the update, and whether this is the
    ///     call for the current value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didUpdate(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value, _ isCurrent: Bool) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in handler(old ?? new, new, old == nil) }
    }

    /// `didUpdate(withCurrent:_:)` spelled with DidUpdate's `handler:` label.
    @_disfavoredOverload
    public func didUpdate(withCurrent: Bool = false, handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        didUpdate(withCurrent: withCurrent, handler)
    }

    /// The full-handler `didUpdate` spelled with DidUpdate's `handler:` label.
    @_disfavoredOverload
    public func didUpdate(
        withCurrent: Bool = false,
        handler: @escaping @Sendable (_ old: Value, _ new: Value, _ isCurrent: Bool) -> Void
    ) -> Subscription {
        didUpdate(withCurrent: withCurrent, handler)
    }

    /// Calls `handler` when any of the values at `paths` changed (DidUpdate's
    /// `didChange(comparing: [\.a, \.b])`). Each path's value is compared with `==` when it is
    /// `Equatable`; a value that is not counts as changed on every update.
    ///
    /// ```swift
    /// let observer = $model.user.didChange(comparing: [\.name, \.age]) { user in render(user) }
    /// ```
    ///
    /// - Parameters:
    ///   - paths: The key paths to compare.
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called with the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        comparing paths: [any PartialKeyPath<Value> & Sendable],
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new) }
            if paths.contains(where: { !_isKnownEqual(old[keyPath: $0], new[keyPath: $0]) }) { handler(new) }
        }
    }

    /// Calls `handler` with the old and the new value when any of the values at `paths`
    /// changed.
    ///
    /// - Parameters:
    ///   - paths: The key paths to compare.
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and new.
    ///   - handler: Called with the value before and after the change.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        comparing paths: [any PartialKeyPath<Value> & Sendable],
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new, new) }
            if paths.contains(where: { !_isKnownEqual(old[keyPath: $0], new[keyPath: $0]) }) { handler(old, new) }
        }
    }

    /// Calls `handler` when the value at `path` of the wrapped value changed, for an optional
    /// value (`\.width` on a `Size?`): `nil` on either side counts as a change unless both
    /// are `nil`.
    ///
    /// ```swift
    /// let observer = $model.frame.didChange(comparing: \Size.width) { frame in relayout(frame) }
    /// ```
    ///
    /// - Parameters:
    ///   - path: A key path into the wrapped type.
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called with the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<Wrapped: SendableMetatype, Part: Equatable & SendableMetatype>(
        comparing path: any KeyPath<Wrapped, Part> & Sendable,
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription where Value == Wrapped? {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new) }
            if old.map({ $0[keyPath: path] }) != new.map({ $0[keyPath: path] }) { handler(new) }
        }
    }

    /// The old-and-new form of `didChange(comparing:)` for a key path into an optional value.
    ///
    /// - Parameters:
    ///   - path: A key path into the wrapped type.
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and new.
    ///   - handler: Called with the value before and after the change.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<Wrapped: SendableMetatype, Part: Equatable & SendableMetatype>(
        comparing path: any KeyPath<Wrapped, Part> & Sendable,
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription where Value == Wrapped? {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new, new) }
            if old.map({ $0[keyPath: path] }) != new.map({ $0[keyPath: path] }) { handler(old, new) }
        }
    }
}

extension ObservableValue where Self: Sendable, Value: Equatable {
    /// Calls `handler` with the old value, the new value and whether the call is the one
    /// `withCurrent` asked for (DidUpdate's full handler), when the value changes.
    ///
    /// ```swift
    /// let observer = $model.count.didChange(withCurrent: true) { old, new, isCurrent in
    ///     label.text = "\(new)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and
    ///     new, and `isCurrent` true.
    ///   - handler: Called with the value before and after the change, and whether this is the
    ///     call for the current value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value, _ isCurrent: Bool) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new, new, true) }
            if old != new { handler(old, new, false) }
        }
    }

    /// `didChange(withCurrent:_:)` spelled with DidUpdate's `handler:` label.
    @_disfavoredOverload
    public func didChange(withCurrent: Bool = false, handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        didChange(withCurrent: withCurrent, handler)
    }

    /// The full-handler `didChange` spelled with DidUpdate's `handler:` label.
    @_disfavoredOverload
    public func didChange(
        withCurrent: Bool = false,
        handler: @escaping @Sendable (_ old: Value, _ new: Value, _ isCurrent: Bool) -> Void
    ) -> Subscription {
        didChange(withCurrent: withCurrent, handler)
    }
}
