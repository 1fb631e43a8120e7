import Ripple

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with the new value after every update, even one that writes an
    /// equal value (see ``ObservableValue`` for what counts as an update).
    ///
    /// ```swift
    /// let observer = $model.username.didUpdate { name in
    ///     print("username updated to", name)
    /// }
    /// ```
    ///
    /// Updates inside one `batch` are reported once, with the final value. Like every
    /// handler, `handler` is untracked, and a reaction it starts runs as long as its own
    /// subscription (see ``ObservableValue``).
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called with the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didUpdate(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { _, new in handler(new) }
    }

    /// Calls `handler` with the old and the new value after every update, even one that
    /// writes an equal value (see ``ObservableValue`` for what counts as an update).
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and new.
    ///   - handler: Called with the value before and after the update.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didUpdate(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in handler(old ?? new, new) }
    }

    /// Calls `handler` when the projections at `paths` differ between the old and the new
    /// value: one path or several, optional chains included.
    ///
    /// ```swift
    /// // Only when the name goes from empty to non-empty or back.
    /// let observer = $model.username.didChange(comparing: \.isEmpty) { name in
    ///     print(name.isEmpty ? "empty again" : "no longer empty")
    /// }
    /// // When either the street or the city changes; `address` is optional.
    /// let moved = $model.user.didChange(comparing: \.address?.street, \.address?.city) { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - first: A key path to compare.
    ///   - paths: More key paths to compare; a change in any of them calls `handler`.
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called with the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<First: Equatable & SendableMetatype, each Part: Equatable & SendableMetatype>(
        comparing first: any KeyPath<Value, First> & Sendable,
        _ paths: repeat any KeyPath<Value, each Part> & Sendable,
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new) }
            if old[keyPath: first] != new[keyPath: first] || _differ(old, new, repeat each paths) { handler(new) }
        }
    }

    /// Calls `handler` with the old and the new value when the projections at `paths` differ.
    ///
    /// - Parameters:
    ///   - first: A key path to compare.
    ///   - paths: More key paths to compare; a change in any of them calls `handler`.
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and new.
    ///   - handler: Called with the value before and after the change.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<First: Equatable & SendableMetatype, each Part: Equatable & SendableMetatype>(
        comparing first: any KeyPath<Value, First> & Sendable,
        _ paths: repeat any KeyPath<Value, each Part> & Sendable,
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new, new) }
            if old[keyPath: first] != new[keyPath: first] || _differ(old, new, repeat each paths) { handler(old, new) }
        }
    }
}

extension ObservableValue where Self: Sendable, Value: Equatable {
    /// Calls `handler` with the new value when the value changes: an update that writes an
    /// equal value is ignored.
    ///
    /// ```swift
    /// let observer = $model.count.didChange { print("count is now", $0) }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current value.
    ///   - handler: Called with the new value.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            if old != new { handler(new) }  // `nil` (the current value, asked for) differs too
        }
    }

    /// Calls `handler` with the old and the new value when the value changes.
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with the current value as both old and new.
    ///   - handler: Called with the value before and after the change.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            guard let old else { return handler(new, new) }
            if old != new { handler(old, new) }
        }
    }
}

/// Whether any of `paths` projects `old` and `new` to different values.
func _differ<Root, each Part: Equatable>(
    _ old: Root,
    _ new: Root,
    _ paths: repeat KeyPath<Root, each Part>
) -> Bool {
    for path in repeat each paths {
        if old[keyPath: path] != new[keyPath: path] { return true }
    }
    return false
}
