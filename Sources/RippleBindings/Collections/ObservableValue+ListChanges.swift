import Ripple
import RippleModels

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with what changed, element by element, after every change of an array
    /// of `Identifiable` elements: a `Stored<[Row]>`, a model's array property, a `Computed`.
    ///
    /// Elements are matched by `id`; one whose content differs is reported updated.
    ///
    /// ```swift
    /// let rows = Stored<[Row]>([])
    /// let subscription = rows.didChangeElements { changes, rows in
    ///     tableView.performBatchUpdates { apply(changes) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with every element reported inserted.
    ///   - handler: Called with the changes and the elements after them.
    /// - Returns: A subscription that stops the handler when cancelled or released.
    /// - Complexity: Each change costs one diff: O(*n* + *m* + *k* log *k*).
    public func didChangeElements<Element: Identifiable & Equatable & Sendable>(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ changes: ListChanges, _ elements: [Element]) -> Void
    ) -> Subscription where Value == [Element] {
        _didChangeElements(withCurrent: withCurrent, isUpdated: { $0 != $1 }, handler)
    }

    /// `didChangeElements(withCurrent:_:)` for elements that are not `Equatable`: an
    /// element present before and after is never reported updated.
    public func didChangeElements<Element: Identifiable & Sendable>(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ changes: ListChanges, _ elements: [Element]) -> Void
    ) -> Subscription where Value == [Element] {
        _didChangeElements(withCurrent: withCurrent, isUpdated: nil, handler)
    }

    private func _didChangeElements<Element: Identifiable & Sendable>(
        withCurrent: Bool,
        isUpdated: (@Sendable (Element, Element) -> Bool)?,
        _ handler: @escaping @Sendable (ListChanges, [Element]) -> Void
    ) -> Subscription where Value == [Element] {
        _observeListChanges(
            read: { self.value },
            changes: { ListChanges(from: $0, to: $1, id: { $0.id }, isUpdated: isUpdated) },
            count: { $0.count },
            elements: { $0 },
            withCurrent: withCurrent,
            handler
        )
    }
}

/// The reaction behind every `didChangeElements`: it reads a version of a list, and calls
/// `handler` with the changes from the version it saw last (all inserted, on its first run,
/// when `withCurrent` is set).
func _observeListChanges<Version: Sendable, Element>(
    read: @escaping @Sendable () -> Version,
    changes: @escaping @Sendable (_ old: Version, _ new: Version) -> ListChanges,
    count: @escaping @Sendable (Version) -> Int,
    elements: @escaping @Sendable (Version) -> [Element],
    withCurrent: Bool,
    _ handler: @escaping @Sendable (ListChanges, [Element]) -> Void
) -> Subscription {
    let seen = _Box<Version?>(nil)
    return withoutOwner {
        observe {
            let current = read()
            let found: ListChanges
            if let previous = seen.exchange(current) {
                found = changes(previous, current)
                if found.isEmpty { return }
            } else if withCurrent {
                found = .replacingAll(oldCount: 0, newCount: count(current))
            } else {
                return
            }
            withoutOwner { untracked { handler(found, elements(current)) } }
        }
    }
}
