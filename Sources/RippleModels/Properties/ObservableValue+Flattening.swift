import Ripple

extension ObservableValue where Self: Sendable {
    /// A value that follows a node held inside this value (Yoyo's `MultilevelProperty`).
    ///
    /// It changes when this value switches to a different inner node and when the current
    /// inner node changes. Chain it for more levels.
    ///
    /// ```swift
    /// final class Person: Sendable { let name: Stored<String> }
    /// let selected = Stored(alice)
    /// let selectedName = selected.flatMap { $0.name }   // follows both
    /// ```
    ///
    /// - Parameter select: Picks the inner node out of the value.
    /// - Returns: A `Computed` with the inner node's value.
    public func flatMap<Inner: ObservableValue & Sendable>(
        _ select: @escaping @Sendable (Value) -> Inner
    ) -> Computed<Inner.Value> {
        Computed(equals: _equality(for: Inner.Value.self)) { select(self.value).value }
    }

    /// ``flatMap(_:)->Computed<Inner.Value>`` with its own equality (Yoyo's
    /// `changePredicate:`): its readers run again only when `isEqual` says the value changed.
    ///
    /// ```swift
    /// let name = selected.flatMap(equals: { $0.lowercased() == $1.lowercased() }) { $0.name }
    /// ```
    ///
    /// - Parameters:
    ///   - isEqual: When two values count as the same; `nil`: every change notifies.
    ///   - select: Picks the inner node out of the value.
    public func flatMap<Inner: ObservableValue & Sendable>(
        equals isEqual: (@Sendable (Inner.Value, Inner.Value) -> Bool)?,
        _ select: @escaping @Sendable (Value) -> Inner
    ) -> Computed<Inner.Value> {
        Computed(equals: isEqual) { select(self.value).value }
    }

    /// A value that follows an optional node held inside this value, `nil` while there is
    /// none (Yoyo's `MultilevelOptionalProperty`).
    ///
    /// ```swift
    /// let selected = Stored<Person?>(nil)
    /// let selectedName = selected.flatMap { $0?.name }  // String?
    /// ```
    ///
    /// - Parameter select: Picks the inner node out of the value, or `nil`.
    /// - Returns: A `Computed` with the inner node's value, or `nil`.
    public func flatMap<Inner: ObservableValue & Sendable>(
        _ select: @escaping @Sendable (Value) -> Inner?
    ) -> Computed<Inner.Value?> {
        Computed(equals: _equality(for: Inner.Value?.self)) { select(self.value)?.value }
    }

    /// A value that follows an optional node holding an optional value, `nil` while there is
    /// no node or the node holds `nil`: the two levels of optional collapse into one.
    ///
    /// ```swift
    /// // Person has `let friend: Stored<Person?>`
    /// let friend = selected.flatMap { $0?.friend }           // Person?
    /// let friendName = friend.flatMap { $0?.name }           // String?
    /// ```
    ///
    /// - Parameter select: Picks the inner node out of the value, or `nil`.
    /// - Returns: A `Computed` with the inner node's value, or `nil`.
    public func flatMap<Inner: ObservableValue & Sendable, Wrapped>(
        _ select: @escaping @Sendable (Value) -> Inner?
    ) -> Computed<Wrapped?> where Inner.Value == Wrapped? {
        Computed(equals: _equality(for: Wrapped?.self)) { select(self.value)?.value ?? nil }
    }
}
