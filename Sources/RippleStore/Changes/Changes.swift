/// A state delivered to a subscriber, with the state it replaces, so that the subscriber can
/// update only what changed.
///
/// Subscribers of a store (``Store/sinkState(dropsFirst:file:line:_:)``) and of a derived value
/// receive one per commit. Read the current state through dynamic member lookup, and run
/// work only for what changed with ``ifChanged(_:perform:)-90bxw``:
///
/// ```swift
/// store.sinkState { changes in
///     changes.ifChanged(\.name) { name in label.text = name }
///     changes.ifChanged(\.count, \.limit) { count, limit in
///         counter.text = "\(count) of \(limit)"
///     }
/// }
/// ```
///
/// The first delivery has no previous state: everything counts as changed.
///
/// `State` need not be `Sendable`: a ``MainActorStore``'s state, whose `Equatable` conformance
/// may be isolated to the main actor, is delivered in one too. A `Changes` is `Sendable` when
/// its state is.
@dynamicMemberLookup
public struct Changes<State> {
    /// The current state and the previous one, as the store's snapshots: a delivery hands a
    /// subscriber two references, where copies of the states retained each of their fields
    /// (about 450 of the 690 instructions of a subscriber's delivery).
    ///
    /// Held untyped (each is a `_Snapshot<State>`) and cast where read: a dispatcher hands the
    /// snapshots untyped, and a `Changes` made of casts of them retained both for every
    /// subscriber and released them after (the optimizer keeps the copy a cast makes), where
    /// a `Changes` made of the references as they are handed costs no reference counting.
    /// Four atomic operations per subscriber on the two snapshots every subscriber shares
    /// made a thousand subscribers cost 1.5 to 2 times a Verge-style store's.
    @usableFromInline let _current: _AnySnapshot
    @usableFromInline let _previous: _AnySnapshot?

    /// The state after the commit.
    @inlinable public var current: State { unsafeDowncast(_current, to: _Snapshot<State>.self).state }
    /// The state the subscriber saw before, or `nil` on the first delivery.
    @inlinable public var previous: State? { _previous.map { unsafeDowncast($0, to: _Snapshot<State>.self).state } }
    /// The store's version of ``current``: 0 for the initial state, one more per commit that
    /// changed something. A subscriber that runs on another executor may skip versions (it
    /// sees the latest state, and ``previous`` is what it saw last).
    @inlinable public var version: UInt64 { _current.version }
    /// The commit that produced ``current``: its name, place and metadata.
    @inlinable public var transaction: Transaction { _current.transaction }

    /// Creates a changes value; stores create them for their subscribers.
    ///
    /// - Parameters:
    ///   - previous: The state before, or `nil` when everything counts as changed.
    ///   - current: The state after.
    ///   - version: The version of `current`.
    ///   - transaction: The commit that produced `current`.
    @inlinable
    public init(
        previous: State?, current: State, version: UInt64 = 0,
        transaction: Transaction = Transaction(name: "initial state")
    ) {
        _current = _Snapshot(state: current, version: version, transaction: transaction)
        _previous = previous.map { _Snapshot(state: $0, version: version, transaction: transaction) }
    }

    /// The change from the snapshot `previous` to the snapshot `current`, sharing them.
    @inlinable
    init(_previous previous: _Snapshot<State>?, current: _Snapshot<State>) {
        _current = current
        _previous = previous
    }

    /// A value of the current state.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        current[keyPath: keyPath]
    }

    /// Whether the values at `keyPaths` differ between the previous and the current state
    /// (always `true` on the first delivery).
    ///
    /// - Complexity: One comparison per key path.
    @inlinable
    public func hasChanges<each Value: Equatable>(_ keyPaths: repeat KeyPath<State, each Value>) -> Bool {
        guard let previous else { return true }
        for keyPath in repeat each keyPaths {
            if previous[keyPath: keyPath] != current[keyPath: keyPath] { return true }
        }
        return false
    }

    /// Whether the value `selector` picks differs between the previous and the current state,
    /// as `isEqual` tells (always `true` on the first delivery).
    @inlinable
    public func hasChanges<Value>(_ selector: (State) throws -> Value, _ isEqual: (Value, Value) throws -> Bool)
        rethrows -> Bool
    {
        guard let previous else { return true }
        return try !isEqual(selector(previous), selector(current))
    }

    /// Runs `perform` with the current values at `keyPaths` if any of them changed.
    ///
    /// ```swift
    /// changes.ifChanged(\.name) { name in label.text = name }
    /// changes.ifChanged(\.first, \.last) { first, last in label.text = "\(first) \(last)" }
    /// ```
    ///
    /// - Returns: What `perform` returned, or `nil` when nothing changed.
    @discardableResult
    @inlinable
    public func ifChanged<each Value: Equatable, Result>(
        _ keyPaths: repeat KeyPath<State, each Value>,
        perform: (repeat each Value) throws -> Result
    ) rethrows -> Result? {
        guard hasChanges(repeat each keyPaths) else { return nil }
        return try perform(repeat current[keyPath: each keyPaths])
    }

    /// Runs `perform` with the current value at `keyPath` if it changed: the one-key-path form
    /// of ``ifChanged(_:perform:)-90bxw``, which the compiler prefers.
    ///
    /// ```swift
    /// changes.ifChanged(\.name) { name in label.text = name }
    /// ```
    ///
    /// Without parameter packs its code is compiled for your state in your module, key path
    /// included: a subscriber comparing one field costs a comparison, about a tenth of the
    /// pack form's generic key path reads.
    ///
    /// - Returns: What `perform` returned, or `nil` when the value did not change.
    /// - Complexity: One comparison.
    @discardableResult
    @inlinable
    public func ifChanged<Value: Equatable, Result>(
        _ keyPath: KeyPath<State, Value>,
        perform: (Value) throws -> Result
    ) rethrows -> Result? {
        let value = current[keyPath: keyPath]
        if let previous, previous[keyPath: keyPath] == value { return nil }
        return try perform(value)
    }

    /// Runs `perform` with the value `selector` picks if it changed, as `isEqual` tells.
    ///
    /// ```swift
    /// changes.ifChanged({ $0.items.map(\.id) }, ==) { ids in reloadRows(ids) }
    /// ```
    ///
    /// - Returns: What `perform` returned, or `nil` when nothing changed.
    @discardableResult
    @inlinable
    public func ifChanged<Value, Result>(
        _ selector: (State) throws -> Value,
        _ isEqual: (Value, Value) throws -> Bool,
        _ perform: (Value) throws -> Result
    ) rethrows -> Result? {
        guard try hasChanges(selector, isEqual) else { return nil }
        return try perform(selector(current))
    }

    /// The current value at `keyPath` if it changed, otherwise `nil`.
    ///
    /// ```swift
    /// if let name = changes.takeIfChanged(\.name) { label.text = name }
    /// ```
    @inlinable
    public func takeIfChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Value? {
        hasChanges(keyPath) ? current[keyPath: keyPath] : nil
    }

    /// The same changes, seen through `transform`: a subscriber of part of the state.
    ///
    /// ```swift
    /// let profile: Changes<Profile> = changes.map(\.profile)
    /// ```
    ///
    /// - Complexity: Two calls of `transform` (one on the first delivery).
    @inlinable
    public func map<Mapped>(_ transform: (State) throws -> Mapped) rethrows -> Changes<Mapped> {
        try Changes<Mapped>(
            previous: previous.map(transform),
            current: transform(current),
            version: version,
            transaction: transaction
        )
    }

    /// The same changes, seen through the optional value at `keyPath`, or `nil` when that value
    /// is absent now (Verge's `mapIfPresent`): a subscriber of an optional part of the state.
    ///
    /// ```swift
    /// if let user = changes.mapIfPresent(\.user) {
    ///     user.ifChanged(\.name) { name in label.text = name }
    /// }
    /// ```
    ///
    /// When the value was absent before (or this is the first delivery), the result's
    /// ``previous`` is `nil`, so every `ifChanged` on it runs.
    ///
    /// - Returns: `nil` when the current value at `keyPath` is `nil`.
    /// - Complexity: Two key-path reads.
    public func mapIfPresent<Wrapped>(_ keyPath: KeyPath<State, Wrapped?>) -> Changes<Wrapped>? {
        guard let mapped = current[keyPath: keyPath] else { return nil }
        return Changes<Wrapped>(
            previous: previous.flatMap { $0[keyPath: keyPath] },
            current: mapped,
            version: version,
            transaction: transaction
        )
    }

    /// The same changes, seen through `transform`, or `nil` when it returns `nil` for the
    /// current state; like the key-path form, for a value the state computes.
    ///
    /// ```swift
    /// if let first = changes.mapIfPresent({ $0.items.first }) { … }
    /// ```
    ///
    /// - Returns: `nil` when `transform` returns `nil` for the current state.
    /// - Complexity: Two calls of `transform` (one when the current value is absent or on the
    ///   first delivery).
    public func mapIfPresent<Wrapped>(_ transform: (State) throws -> Wrapped?) rethrows -> Changes<Wrapped>? {
        guard let mapped = try transform(current) else { return nil }
        return try Changes<Wrapped>(
            previous: previous.flatMap(transform),
            current: mapped,
            version: version,
            transaction: transaction
        )
    }
}

extension Changes: Sendable where State: Sendable {}

extension Changes where State: Equatable {
    /// Whether the state differs from the previous one (always `true` on the first delivery).
    @inlinable
    public var hasChanges: Bool {
        previous.map { $0 != current } ?? true
    }
}

extension Changes {
    /// The change from the snapshot a subscriber saw last (`nil` on its first delivery) to the
    /// published one, both `_Snapshot<State>`s, as a store's dispatcher hands them, held as they
    /// are handed (see `_current`). One initializer for `Store.sinkState` and
    /// `MainActorStore.sinkState`: inlinable, so that each builds it in code compiled for the
    /// concrete state.
    @inlinable
    init(_deliveredFrom previous: _AnySnapshot?, to current: _AnySnapshot) {
        _current = current
        _previous = previous
    }
}
