/// A committed state of a store without its type: what the store's graph node holds, and what
/// its bookkeeping passes around.
///
/// Classes, not a struct, and a non-generic base: the store's code is generic over its state and
/// runs unspecialized (it is called from the app's module), so every value whose type mentions
/// the state type (a `_Snapshot<State>`, an optional of one, a node of them) has its metadata
/// looked up at run time, in a hash table, each time it is copied or tested. A snapshot handled
/// as `_AnySnapshot` is a plain reference whose code is compiled once: a commit with no
/// subscriber went from 20 509 to under 6 000 instructions (`Benchmarks/count-instructions.sh
/// --store commit0`).
@usableFromInline
class _AnySnapshot: @unchecked Sendable {
    /// 0 for the initial state, one more per commit that changed something.
    @usableFromInline let version: UInt64
    @usableFromInline let transaction: Transaction

    @usableFromInline
    init(version: UInt64, transaction: Transaction) {
        self.version = version
        self.transaction = transaction
    }
}

/// One committed state of a store, as its graph node holds it, and what a ``Changes`` holds:
/// a subscriber is handed two references, not two copies of the state.
///
/// Usable from inlinable code: a subscriber's delivery is compiled in the app's module, for its
/// state type (`Store.sinkState`). Immutable; `Sendable` when `State` is (a ``Changes`` of a
/// main-actor state holds one too).
@usableFromInline
final class _Snapshot<State>: _AnySnapshot, @unchecked Sendable {
    @usableFromInline let state: State

    @usableFromInline
    init(state: State, version: UInt64, transaction: Transaction) {
        self.state = state
        super.init(version: version, transaction: transaction)
    }
}

/// The store's graph node: a `Stored` of type-erased snapshots (whose inlined code is compiled
/// for that one type), read back as the store's own snapshots.
extension _Snapshot {
    /// The value of type `Value` at byte `offset` of the state: a stored property, whose offset
    /// `MemoryLayout<State>.offset(of:)` gave (the access its documentation shows). Read in
    /// place, without copying the state.
    func value<Value>(at offset: Int, as _: Value.Type) -> Value {
        withUnsafePointer(to: state) { (UnsafeRawPointer($0) + offset).assumingMemoryBound(to: Value.self).pointee }
    }

    /// Reads the value at `keyPath` in a snapshot's state: in place when the key path is a
    /// stored property at a fixed offset (`\.user.name`), else through the key path (a computed
    /// property, a subscript). Applying a key path costs about 300 instructions (the standard
    /// library's projection looks up generic metadata each time); a read in place, a few. The
    /// key-path slices of `Store` and of `MainActorStore` read through it.
    static func reader<Value>(of keyPath: KeyPath<State, Value>) -> @Sendable (_Snapshot) -> Value {
        if let offset = MemoryLayout<State>.offset(of: keyPath) {
            return { $0.value(at: offset, as: Value.self) }
        }
        let path = _KeyPath(keyPath: keyPath)
        return { $0.state[keyPath: path.keyPath] }
    }
}

struct _SnapshotNode<State>: Sendable {
    let stored: Stored<_AnySnapshot>

    init(_ snapshot: _Snapshot<State>, name: String) {
        stored = Stored(snapshot, name: name, equals: { old, new in new.version <= old.version })
    }

    /// A node that publishes every write, with no equality: for `MainActorStore`, whose
    /// commits write it in order, on the main actor.
    init(publishingEveryWrite snapshot: _Snapshot<State>, name: String) {
        stored = Stored(snapshot, name: name)
    }

    /// The published snapshot; a tracked read inside reactions and derivations.
    var value: _Snapshot<State> {
        get { unsafeDowncast(stored.value, to: _Snapshot<State>.self) }
        nonmutating set { stored.value = newValue }
    }
}

/// A key path the store keeps in `@Sendable` closures. Key paths are immutable values; the
/// ones a store receives are `Sendable` at the call site, this only carries that across the
/// appending a scoped dispatcher does.
struct _KeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: KeyPath<Root, Value>
}

/// A subscriber's own value, touched only by its deliveries, which never overlap: a reaction's
/// runs, or a store subscriber's deliveries (handed from the subscribing thread to the
/// dispatcher under its lock).
///
/// Unchecked exclusivity, as ``_SinkValueDeliveries``: no two deliveries overlap, so no two
/// accesses can.
@usableFromInline
final class _ReactionBox<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
}

/// What a `sinkValue` subscriber (of a `Derived` or a `MainActorComputed`) was handed last,
/// and how many deliveries it had: touched only by its reaction's runs (which never overlap).
///
/// Unchecked exclusivity: the run-time check of the two fields, on every delivery, cost about
/// 150 of a derived value's delivery's 1 170 instructions, and no two runs overlap, so no two
/// accesses can.
@usableFromInline
final class _SinkValueDeliveries<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var previous: _Snapshot<Value>?
    @usableFromInline @exclusivity(unchecked) var count: UInt64 = 0
    @usableFromInline init() {}

    /// The change to hand the subscriber for `current`: from the value it was handed last,
    /// numbered by the deliveries so far; `nil` for the first value when `dropsFirst`. One
    /// snapshot per delivery (the previous one is kept).
    @inlinable
    func changes(to current: Value, dropsFirst: Bool, file: StaticString, line: UInt) -> Changes<Value>? {
        let old = previous
        let snapshot = _Snapshot(
            state: current, version: count, transaction: Transaction(name: "derived", file: file, line: line))
        previous = snapshot
        if old == nil, dropsFirst { return nil }
        count += 1
        return Changes(_previous: old, current: snapshot)
    }
}

/// A snapshot as traces show it: its state.
extension _Snapshot: CustomStringConvertible {
    @usableFromInline var description: String { String(describing: state) }
}
