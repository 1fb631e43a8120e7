import Ripple

/// A read-only view of two values together; it updates when either does.
///
/// ```swift
/// let credentials = compound($form.user, $form.password)
/// let observer = credentials.didChange { user, password in validate(user, password) }
/// ```
public func compound<A, B>(
    _ a: some ObservableValue<A> & Sendable,
    _ b: some ObservableValue<B> & Sendable
) -> ReadOnlyBinding<(A, B)> {
    ReadOnlyBinding(
        read: { (a.value, b.value) },
        readUpdates: { (a._readForUpdate(), b._readForUpdate()) }
    )
}

/// A read-only view of three values together; it updates when any of them does.
public func compound<A, B, C>(
    _ a: some ObservableValue<A> & Sendable,
    _ b: some ObservableValue<B> & Sendable,
    _ c: some ObservableValue<C> & Sendable
) -> ReadOnlyBinding<(A, B, C)> {
    ReadOnlyBinding(
        read: { (a.value, b.value, c.value) },
        readUpdates: { (a._readForUpdate(), b._readForUpdate(), c._readForUpdate()) }
    )
}

/// A read-only view of four values together; it updates when any of them does.
///
/// ```swift
/// let address = compound($form.street, $form.city, $form.zip, $form.country)
/// ```
public func compound<A, B, C, D>(
    _ a: some ObservableValue<A> & Sendable,
    _ b: some ObservableValue<B> & Sendable,
    _ c: some ObservableValue<C> & Sendable,
    _ d: some ObservableValue<D> & Sendable
) -> ReadOnlyBinding<(A, B, C, D)> {
    ReadOnlyBinding(
        read: { (a.value, b.value, c.value, d.value) },
        readUpdates: { (a._readForUpdate(), b._readForUpdate(), c._readForUpdate(), d._readForUpdate()) }
    )
}

/// A view that is `true` when every one of `values` is `true`.
///
/// ```swift
/// let canSubmit = allTrue($form.isValid, $form.hasAcceptedTerms, isOnline)
/// ```
///
/// - Complexity: O(*n*) per read.
public func allTrue(_ values: any ObservableValue<Bool> & Sendable...) -> ReadOnlyBinding<Bool> {
    ReadOnlyBinding(
        read: { values.allSatisfy { $0.value } },
        // Every source is read, so an update of any of them reaches `didUpdate`.
        readUpdates: { values.map { $0._readForUpdate() }.allSatisfy { $0 } }
    )
}

/// A view that is `true` when at least one of `values` is `true`.
///
/// - Complexity: O(*n*) per read.
public func someTrue(_ values: any ObservableValue<Bool> & Sendable...) -> ReadOnlyBinding<Bool> {
    ReadOnlyBinding(
        read: { values.contains { $0.value } },
        readUpdates: { values.map { $0._readForUpdate() }.contains(true) }
    )
}

extension ObservableValue where Self: Sendable {
    /// Calls `handler` with both parts when either part of a pair changes, as for a
    /// ``compound(_:_:)``.
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current parts.
    ///   - handler: Called with the new parts.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<A: Equatable & SendableMetatype, B: Equatable & SendableMetatype>(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (A, B) -> Void
    ) -> Subscription where Value == (A, B) {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            if let old, old == new { return }
            handler(new.0, new.1)
        }
    }

    /// Calls `handler` with all three parts when any part of a triple changes, as for a
    /// ``compound(_:_:_:)``.
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current parts.
    ///   - handler: Called with the new parts.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<
        A: Equatable & SendableMetatype, B: Equatable & SendableMetatype, C: Equatable & SendableMetatype
    >(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (A, B, C) -> Void
    ) -> Subscription where Value == (A, B, C) {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            if let old, old == new { return }
            handler(new.0, new.1, new.2)
        }
    }

    /// Calls `handler` with all four parts when any part of a quadruple changes, as for a
    /// ``compound(_:_:_:_:)``.
    ///
    /// ```swift
    /// let observer = compound($form.street, $form.city, $form.zip, $form.country)
    ///     .didChange { street, city, zip, country in validate(street, city, zip, country) }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once with the current parts.
    ///   - handler: Called with the new parts.
    /// - Returns: A `Subscription` that stops the handler when cancelled or released.
    public func didChange<
        A: Equatable & SendableMetatype,
        B: Equatable & SendableMetatype,
        C: Equatable & SendableMetatype,
        D: Equatable & SendableMetatype
    >(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (A, B, C, D) -> Void
    ) -> Subscription where Value == (A, B, C, D) {
        _observeUpdates(withCurrent: withCurrent) { old, new in
            if let old, old == new { return }
            handler(new.0, new.1, new.2, new.3)
        }
    }
}
