/// A main-actor store's state, read one key path at a time: each value read through it is
/// tracked on its own (``TrackedState`` for a ``MainActorStore``).
///
/// ``MainActorStore/state`` returns one. Inside a `MainActorComputed`, an
/// `observeOnMainActor` reaction, `withObservationTracking` or a SwiftUI body, reading
/// `store.state.count` makes the reader depend on `count` only.
///
/// ```swift
/// let title = MainActorComputed { "\(store.state.name) (\(store.state.count))" }
/// ```
///
/// A value that is `Equatable` is tracked by its key path, cut off by equality (its
/// conformance may be isolated to the main actor). A value that is not is read from the whole
/// state, so its reader runs on every commit.
///
/// - Complexity: A read looks its key path up in a dictionary (hashing the key path) and reads
///   a `MainActorComputed`: O(1) when nothing changed.
@MainActor
@dynamicMemberLookup
public struct MainActorTrackedState<State: Equatable> {
    @usableFromInline let core: _MainActorStoreCore<State>

    /// The value at `keyPath`, tracked on its own.
    @inlinable
    public subscript<Member: Equatable>(dynamicMember keyPath: KeyPath<State, Member>) -> Member {
        // Inlinable: the node behind a key path read the first time is made for the concrete
        // type (see `_StoreCore.slice`).
        core.slice(keyPath) { MainActorComputed(describedBy: $0, $1) }.value
    }

    /// The value at `keyPath`, read from the whole state (tracked on every commit: the value is
    /// not `Equatable`).
    public subscript<Member>(dynamicMember keyPath: KeyPath<State, Member>) -> Member {
        core.node.value.state[keyPath: keyPath]
    }

    /// The whole state. Reading it tracks every commit.
    public var wholeValue: State {
        core.node.value.state
    }
}
