/// A store's state, read one key path at a time: each value read through it is tracked on its
/// own.
///
/// ``Store/state`` returns one. Inside a `Computed`, an `observe { }` reaction,
/// `withObservationTracking` or a SwiftUI body, reading `store.state.count` makes the reader
/// depend on `count` only: a commit that changes only `name` does not touch it.
///
/// ```swift
/// let title = Computed { "\(store.state.name) (\(store.state.count))" }
/// ```
///
/// A value that is `Equatable` is tracked by its key path, cut off by equality. A value that is
/// not is read from the whole state, so its reader runs on every commit. Read nested values
/// through their outermost `Equatable` value (`store.state.profile.name` tracks `profile`).
///
/// Read outside a reader (untracked) on a thread that is committing or delivering, it shows
/// every commit that thread made so far, like ``Store/currentState``.
///
/// - Complexity: A read looks its key path up in a dictionary (hashing the key path) and reads
///   a `Computed`: O(1) when nothing changed.
@dynamicMemberLookup
public struct TrackedState<Value: Sendable>: Sendable {
    @usableFromInline let source: any _TrackedSource<Value>

    /// The value at `keyPath`, tracked on its own.
    @inlinable
    public subscript<Member: Equatable & Sendable>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        // Inlinable: the node behind a key path read the first time is made for the concrete
        // type (see `_StoreCore.slice`).
        source.read(keyPath) { Computed(describedBy: $0, $1) }
    }

    /// The value at `keyPath`, read from the whole state (tracked on every commit: the value is
    /// not `Equatable`).
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        source.whole()[keyPath: keyPath]
    }

    /// The whole state. Reading it tracks every commit.
    public var wholeValue: Value {
        source.whole()
    }
}

/// What a ``TrackedState`` reads from: a store, or a part of one.
@usableFromInline
protocol _TrackedSource<Root>: Sendable {
    associatedtype Root: Sendable
    /// The value at `keyPath`, tracked on its own; its node, made the first time, is made by
    /// `make` (from its name and derivation).
    func read<Member: Equatable & Sendable>(
        _ keyPath: KeyPath<Root, Member>,
        make: (@escaping @Sendable () -> String, @escaping @Sendable () -> Member) -> Computed<Member>
    ) -> Member
    /// The whole value, tracked on every change.
    func whole() -> Root
}

extension _StoreCore: _TrackedSource {
    @usableFromInline
    func read<Member: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Member>,
        make: (@escaping @Sendable () -> String, @escaping @Sendable () -> Member) -> Computed<Member>
    ) -> Member {
        if let ahead = untrackedAhead() { return ahead.state[keyPath: keyPath] }
        return slice(keyPath, make: make).value
    }

    @usableFromInline
    func whole() -> State {
        currentSnapshot.state
    }
}

/// A part of a store's state, at `scope`.
struct _ScopedSource<State: Equatable & Sendable, Scope: Sendable>: _TrackedSource {
    let core: _StoreCore<State>
    let scope: _KeyPath<State, Scope>

    func read<Member: Equatable & Sendable>(
        _ keyPath: KeyPath<Scope, Member>,
        make: (@escaping @Sendable () -> String, @escaping @Sendable () -> Member) -> Computed<Member>
    ) -> Member {
        if let ahead = core.untrackedAhead() { return ahead.state[keyPath: scope.keyPath][keyPath: keyPath] }
        return core.slice(scope.keyPath.appending(path: keyPath), make: make).value
    }

    func whole() -> Scope {
        core.currentSnapshot.state[keyPath: scope.keyPath]
    }
}
