import _RippleRef

// The node classes' fields, declared together: `_Node` (every node, as a source),
// `_DerivedNode` (a node that reads others), `_SubscriberNode` (a reaction or a watcher),
// `_CachingNode` (a computed value's cache), `_StoredNode` (a stored value's value and write
// count) and `_StoredExtras` (what few stored values need). Their hot fields skip Swift's
// exclusivity checks (`@exclusivity(unchecked)`: the lock already keeps accesses apart, and
// the run-time check costs about 80 instructions an access), which keeps that unsafe code in
// this one file; what the nodes do lives with the features (`Graph/`, `Computed/`, `Stored/`,
// `Reactions/`).

/// Internal: a node of the reactive graph: a stored value, a computed value or a reaction.
///
/// Every field is guarded by the graph's lock. The algorithm that uses them lives in
/// `_Graph`; subclasses add the value and the user's closure. This class holds what every
/// node needs as a *source* (its version and observers); what a node that reads others needs
/// (its sources, its evaluation state) is in `_DerivedNode`, so that a ``Stored`` does not
/// carry it.
///
/// Edges: a derived node holds its `sources` strongly (it needs them to recompute). A source holds
/// its `observers` strongly only while the observer is *live*: a reaction until it is
/// cancelled, a computed value while something live observes it. A computed value nobody
/// observes is therefore held by its owners alone, and checks its sources by version when read.
public class _Node {
    enum Kind: UInt8 {
        case stored, computed, reaction, watcher
    }

    // Stored in declaration order: the fields the source check and propagation read for every
    // node they pass come first, so that they share as few cache lines as possible.

    final let kind: Kind
    /// A live computed value whose sources may have changed (a reaction's mark is in its
    /// lifecycle: `_Lifecycle.isMarked`).
    @exclusivity(unchecked) fileprivate final var _isStale = false
    /// A computed value that has been evaluated at least once.
    @exclusivity(unchecked) fileprivate final var _hasValue = false
    /// A computed value whose derivation is running (to detect cycles).
    @exclusivity(unchecked) fileprivate final var _isEvaluating = false
    /// Flags few nodes ever set, one bit each (`hasExternalSource`, `derivesOnMainActor`,
    /// `notifiesWhenUnobserved`, `_hasWillChangeHandlers`, `comparesWithEquals`,
    /// `hasOwnEquality`), so that they share one byte of the padding before `version`.
    @usableFromInline @exclusivity(unchecked) final var rareFlags: UInt8 = 0
    /// A computed value whose handle armed an Observation watcher (lock held to set; the
    /// watcher is in the graph's `watchers`). A byte of its own, not a bit of `rareFlags`: the
    /// handle's `deinit` reads it without the lock while other threads may set those. In the
    /// padding before `version` too.
    @exclusivity(unchecked) fileprivate final var _hasWatcher = false
    /// A stored value: the threads whose batch staged a write of it, not yet applied (see
    /// `_Staging`; lock held). 16 bits, in the padding before `version`: it costs no memory.
    @usableFromInline @exclusivity(unchecked) final var _stagedCount: UInt16 = 0
    /// Bumped each time the node's value really changes.
    @exclusivity(unchecked) fileprivate final var _version = 0
    /// The id of the last evaluation that recorded this node as a source.
    @exclusivity(unchecked) fileprivate final var _trackedBy = 0
    /// Live nodes that read this one (one link per edge): one pointer, `nil` while none.
    @exclusivity(unchecked) fileprivate final var _observers = _ObserverList()
    /// The graph, reached without reference counting or a lazy-initialisation check: every
    /// node is created after the graph (see `_graphPointer`), so the node needs no field for it.
    @inlinable @inline(__always)
    final var graphRef: _Ref<_Graph> { _Ref(unsafeAddress: _graphPointer.unsafelyUnwrapped) }
    #if RIPPLE_INVARIANTS
    /// Debug builds: the slots of `observers` that removals and compactions have looked at, so
    /// that tests can check that unsubscribing stays amortized O(1) without timing it.
    package final var observerSlotsVisited: Int { _observers.slotsVisited }
    #endif

    /// Whether the node has an entry in the graph's `externalSources` (it read Observation models
    /// inside ``tracked(_:)``; lock held).
    final var hasExternalSource: Bool {
        @inline(__always) get { rareFlags & 1 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 1 : rareFlags & ~1 }
    }

    /// A computed value whose derivation runs on the main actor only (`MainActorComputed`): its
    /// refresh never moves to a helper thread (see `_Graph.refreshOnFreshStack`). Set before it
    /// is shared.
    final var derivesOnMainActor: Bool {
        @inline(__always) get { rareFlags & 2 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 2 : rareFlags & ~2 }
    }

    /// A stored value whose owner asks to hear when its last live observer goes (an
    /// ``AsyncComputed``'s phase: see `_Graph.noteUnobserved`). Set before it is shared.
    final var notifiesWhenUnobserved: Bool {
        @inline(__always) get { rareFlags & 4 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 4 : rareFlags & ~4 }
    }

    /// A stored value with before-change handlers (``Stored/willChange(_:)``; lock held to read
    /// and set). Its writes take the slow path that calls them; every other write pays one test
    /// of this bit, under the lock it takes anyway.
    @inlinable
    final var _hasWillChangeHandlers: Bool {
        @inline(__always) get { rareFlags & 8 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 8 : rareFlags & ~8 }
    }

    /// A computed value cut off by its value's `==` (`Computed`'s `Equatable` initializers): a
    /// reaction that read its private value in a batch's view may compare that value with the
    /// committed one (see `_Graph+PrivateReads.swift`). Set before it is shared.
    @usableFromInline
    final var comparesWithEquals: Bool {
        @inline(__always) get { rareFlags & 16 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 16 : rareFlags & ~16 }
    }

    /// A computed value with an equality of its own, kept by its node
    /// (`_ComparingComputedNode`), for the same comparison as `comparesWithEquals`. Set before
    /// it is shared.
    final var hasOwnEquality: Bool {
        @inline(__always) get { rareFlags & 32 != 0 }
        @inline(__always) set { rareFlags = newValue ? rareFlags | 32 : rareFlags & ~32 }
    }

    /// Where the node was created, or its name. Kept by each kind of node after its own
    /// fields (see `_origin()`), so that the fields the graph reads for every node it passes
    /// share the object's first cache line.
    final var origin: _Origin { _origin() }

    init(kind: Kind) {
        self.kind = kind
        // The first node created initialises the graph, which publishes `_graphPointer`.
        _ = _graphRef
    }

    /// The node's origin, stored by each kind of node (the base class is only the tombstone).
    func _origin() -> _Origin {
        _Origin(name: "tombstone", fileID: #fileID, line: #line)
    }

    /// The node's current value, for traces (copying it runs no user code): the
    /// stored or cached value, or `nil` for reactions and computed values never evaluated.
    func _traceValue(_ held: borrowing _HeldLock) -> Any? { nil }

    /// Called with the lock held for a queued Observation notice: the subject to tell, if this
    /// node's value changed (the caller tells it once the lock is released). Stored values
    /// override it.
    func _changedObservationSubject(_ held: borrowing _HeldLock) -> _Ref<_ObservationSubject>? { nil }

    /// A short description for diagnostics: kind and origin.
    final var debugLabel: String {
        "\(kindName) \(origin)"
    }

    /// The node's kind, as diagnostics and traces name it.
    final var kindName: String {
        switch kind {
        case .stored: "Stored"
        case .computed: "Computed"
        case .reaction: "reaction"
        case .watcher: "watcher"
        }
    }
}

/// Internal: a node that reads others: a computed value, a reaction or an Observation watcher.
///
/// Adds to `_Node` what reading needs: the sources of the last evaluation (each edge holding
/// its source strongly, with the version seen). The state of an evaluation in progress is not
/// here: a computed value's is the graph's (`_Graph.evaluation`, saved on the stack of the
/// evaluation it interrupts), a reaction run's is its thread's (`_ThreadContext.runTracking`).
/// Every field is guarded by the graph's lock.
@usableFromInline
class _DerivedNode: _Node {
    /// What this node read in its last evaluation, with the version it saw.
    @exclusivity(unchecked) fileprivate final var _sources = _Buffer<_Edge>()

    // Each kind stores its origin after its own fields (see `_Node.origin`).

    deinit {
        #if RIPPLE_INVARIANTS
        // A link to a computed value holds no reference (see `_Link`): freeing one that is still
        // linked would leave its sources with a dangling link.
        if kind == .computed, !_observers.isEmpty {
            _rippleFailure("internal invariant: \(debugLabel) freed while linked to its sources")
        }
        #endif
        if hasExternalSource { graphRef.object.dropExternalSource(of: self) }
        // Hand the sources to the release queue instead of releasing them here: a chain of
        // any length is then freed one node at a time, without deep recursion.
        guard !_sources.isEmpty else { return }
        _releaseLater(_sources.take())
    }
}

/// The state of one evaluation or run in progress: which reads it already recorded.
struct _Tracking {
    /// The id of the evaluation in progress (0 when idle): a source whose `trackedBy` holds it
    /// was already recorded.
    var id = 0
    /// The edges recorded so far: a prefix of the node's `sources`.
    var count = 0
}

/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _DerivedNode, @unchecked Sendable {
    /// Where the subscriber was created, or its name.
    private let storedOrigin: _OriginStorage
    /// Its whole lifecycle, in one word (lock held; see `_Lifecycle`): a reaction's runs, its
    /// mark, its queued jobs, its disposal and its holds; a watcher uses the last three. Kept
    /// here, where the delivery queue and the graph's liveness check reach it without knowing
    /// the node's kind. Only `_Lifecycle`'s transitions change it.
    ///
    /// The state of a run in progress is not kept here: which reads it recorded is the running
    /// thread's (`_ThreadContext.runTracking`), and the sources it replaced, rare, are in the
    /// graph's `replacedByRuns`.
    @exclusivity(unchecked) fileprivate final var _lifecycle: _Lifecycle

    init(kind: Kind, origin: _Origin, recordsWhy: Bool = false) {
        storedOrigin = _OriginStorage(origin)
        _lifecycle = _Lifecycle(recordsWhy: recordsWhy)
        super.init(kind: kind)
    }

    override final func _origin() -> _Origin { storedOrigin.origin }

    /// Takes a reference to itself, as a transition of `lifecycle` asked (lock held: a retain
    /// runs no user code). With ``releaseHeldSelf()``, the only place a subscriber holds itself.
    @inline(__always)
    final func holdSelf(_ held: borrowing _HeldLock) {
        _ = _Ref(self).retain()
    }

    /// Gives back the reference ``holdSelf(_:)`` took (lock released: it may free the node and
    /// what it holds).
    @inline(__always)
    final func releaseHeldSelf() {
        _Ref(self).release()
    }
}

/// An edge from a node to one of its sources, holding one strong reference to the source.
///
/// The reference is counted by hand (retained by `init(retaining:version:)`, released with
/// `release()` or handed to the release queue) so that arrays of edges are plain data: the
/// graph's loops copy and scan them without reference-counting traffic.
struct _Edge {
    let ref: _Ref<_Node>
    var version: Int
    /// Where the observer's link is in the source's `observers` while the observer is live
    /// (-1 otherwise): unsubscribing goes straight to it. Kept exact: the link records where
    /// this edge is (see `_Link.edge`), so a compaction that moves the link moves this too.
    var slot = -1

    @inline(__always)
    init(retaining node: _Node, version: Int) {
        ref = _Ref(retaining: node)
        self.version = version
    }

    /// The source (a +0 reference).
    @inline(__always)
    var node: _Node { ref.object }

    /// The source as a derived node (a +0 reference): only for a source that is not stored.
    @inline(__always)
    var derivedRef: _Ref<_DerivedNode> {
        _Ref(unsafeAddress: ref.address)
    }

    @inline(__always)
    func release() {
        ref.release()
    }
}

/// The cache of a computed node: its value, once evaluated. Apart from `_ComputedNode`, which
/// adds the derivation, so that the field, read by every read of a computed value, is declared
/// with the nodes' other hot fields.
@usableFromInline
class _CachingNode<Value>: _ComputedNodeBase {
    /// The value of the last evaluation; `nil` before the first (lock held).
    @usableFromInline @exclusivity(unchecked) final var cached: Value?

    /// The cached value of a node that has been evaluated (read when the graph has just brought
    /// it up to date): unchecked, as the hot read paths need.
    @inlinable
    final var current: Value {
        @inline(__always) get { cached.unsafelyUnwrapped }
    }

    override init(origin: _Origin, specializedEvaluate: @escaping (_Node) -> Bool) {
        super.init(origin: origin, specializedEvaluate: specializedEvaluate)
    }
}

/// The fields of a ``Stored`` that most code reaches: its value, its write count and its
/// extras. `Stored` adds its equality and origin after them.
///
/// The fields of fixed size come before the value: code not specialized for `Value` (the
/// graph's bookkeeping) then reaches them at constant offsets, not through the offsets in the
/// class's metadata.
public class _StoredNode<Value>: _Node {
    /// What most values never need (the staged value of a batch, the Observation subject, the
    /// write counter, nested compound assignments), created by its first use (lock held).
    /// Retained by hand (released in `Stored`'s `deinit`), so that reaching it costs no
    /// reference counting.
    @usableFromInline @exclusivity(unchecked) final var _extras: _Ref<_StoredExtras<Value>>?
    /// Writes so far, equal ones included.
    @exclusivity(unchecked) fileprivate final var _writes = 0
    /// The committed value (lock held to write; see `Stored.value` for the reads).
    @usableFromInline @exclusivity(unchecked) final var _value: Value

    init(_ value: Value) {
        _value = value
        super.init(kind: .stored)
    }
}

/// The parts of a ``Stored`` that most values never use, kept apart so that a plain stored
/// value stays small: created by the first batch write, read in an Observation scope, ``Stored/writeCount``
/// read, compound assignment or before-change handler that needs them (lock held), and freed
/// with the value.
///
/// Every field is guarded by the graph's lock.
@usableFromInline
final class _StoredExtras<Value> {
    /// The batch whose staged value this node holds (others keep theirs apart).
    @exclusivity(unchecked) fileprivate var _stagedOwner: _Ref<_Staging>?
    /// The writes the staged value stands for.
    @exclusivity(unchecked) fileprivate var _stagedWrites = 0
    /// Reactions' reads of the staged value, in the batch's view (see `_StagedRead`).
    @exclusivity(unchecked) fileprivate var _stagedRead = _StagedRead()
    /// Publishes the value's write count to readers of ``Stored/writeCount``.
    @exclusivity(unchecked) fileprivate var _writeCounter: Stored<Int>?
    /// The thread (its context) inside a compound assignment to the value, which other writers
    /// wait for; `nil` when none.
    @exclusivity(unchecked) fileprivate var _exclusiveOwner: _Ref<_ThreadContext>?
    /// Nested compound assignments to the value by the thread that owns it.
    @exclusivity(unchecked) fileprivate var _exclusiveDepth = 0
    /// Observation interop: created by the first read no Ripple reader tracked and an
    /// Observation scope recorded; from then on every change is told to Observation (see
    /// `Stored.armObservation`). Retained by hand so that later top-level reads reach it without
    /// reference counting.
    @exclusivity(unchecked) fileprivate var _observationRef: _Ref<_ObservationSubject>?
    /// Before-change handlers (``Stored/willChange(_:)``), in the order they were added.
    @exclusivity(unchecked) fileprivate var _willChangeHandlers: [_WillChangeHandler<Value>] = []
    /// The thread (its context) calling the before-change handlers, which must not write the
    /// value; `nil` when none.
    @exclusivity(unchecked) fileprivate var _willChangeCaller: _Ref<_ThreadContext>?
    /// The value staged by the batch that holds this node's slot (see `_Staging`). Last: the
    /// fields before it are at constant offsets in code not specialized for `Value`.
    @usableFromInline @exclusivity(unchecked) var _stagedValue: Value?

    init() {}

    deinit {
        _observationRef?.release()
    }
}

// The lock-guarded fields of a node, reached only through an acquisition of the graph's lock:
// `held[isStale: node] = true`, where `held` is the caller's `_HeldLock`. The fields themselves
// are private to this file, so a function that reads or changes a node's graph state must
// hold the lock, and says so in its signature by taking the acquisition. Each subscript is
// inlined to a plain access of the field, with the node passed at +0 (a view holding the
// node, `held[isStale: node]`, retained and released it around each access of a coroutine
// accessor: +44 % instructions per write on the kairo graphs).
//
// The exceptions are named so and read where the lock cannot be taken: a node's `init` and
// `deinit` (no other thread can reach it), `_Node.hasWatcherWithoutLock` (a handle's `deinit`),
// and the fields that code inlined into clients uses on the fast paths (`rareFlags`,
// `_stagedCount`, a stored value's `_value`, `_extras` and staged `_stagedValue`, a computed
// value's `cached`: see `_Graph+FastRead.swift`).
extension _HeldLock {
    /// A live computed value whose sources may have changed (a reaction's mark is in its
    /// lifecycle: `_Lifecycle.isMarked`).
    subscript(isStale node: _Node) -> Bool {
        @inline(__always) get { node._isStale }
        @inline(__always) nonmutating set { node._isStale = newValue }
    }

    /// A computed value that has been evaluated at least once.
    subscript(hasValue node: _Node) -> Bool {
        @inline(__always) get { node._hasValue }
        @inline(__always) nonmutating set { node._hasValue = newValue }
    }

    /// A computed value whose derivation is running (to detect cycles).
    subscript(isEvaluating node: _Node) -> Bool {
        @inline(__always) get { node._isEvaluating }
        @inline(__always) nonmutating set { node._isEvaluating = newValue }
    }

    /// A computed value whose handle armed an Observation watcher (the watcher is in the
    /// graph's `watchers`).
    subscript(hasWatcher node: _Node) -> Bool {
        @inline(__always) get { node._hasWatcher }
        @inline(__always) nonmutating set { node._hasWatcher = newValue }
    }

    /// Bumped each time the node's value really changes.
    subscript(version node: _Node) -> Int {
        @inline(__always) get { node._version }
        @inline(__always) nonmutating set { node._version = newValue }
    }

    /// The id of the last evaluation that recorded the node as a source.
    subscript(trackedBy node: _Node) -> Int {
        @inline(__always) get { node._trackedBy }
        @inline(__always) nonmutating set { node._trackedBy = newValue }
    }

    /// Live nodes that read the node (one link per edge).
    subscript(observers node: _Node) -> _ObserverList {
        @inline(__always) _read { yield node._observers }
        @inline(__always) nonmutating _modify { yield &node._observers }
    }

    /// A computed value's: the graph epoch at which it was last known up to date, while nothing
    /// live observes it (see `_Graph.isFresh`; an observed value is checked by `isStale`), else
    /// -1. Kept in the word of its empty observer list (`_ObserverList.parked`): no field of its
    /// own, and reached without a cast.
    subscript(verifiedEpoch node: _Node) -> Int {
        @inline(__always) get { node._observers.parked ?? -1 }
        @inline(__always) nonmutating set { node._observers.parked = newValue }
    }

    /// Whether anything live observes the node.
    subscript(hasObservers node: _Node) -> Bool {
        @inline(__always) get { !node._observers.isEmpty }
    }

    /// The number of live links to the node (one per edge of a live observer).
    subscript(observerCount node: _Node) -> Int { node._observers.count }

    /// What the node read in its last evaluation, with the version it saw.
    subscript(sources node: _DerivedNode) -> _Buffer<_Edge> {
        @inline(__always) _read { yield node._sources }
        @inline(__always) nonmutating _modify { yield &node._sources }
    }

    /// The subscriber's lifecycle (see `_SubscriberNode`): changed only by its transitions.
    subscript(lifecycle node: _SubscriberNode) -> _Lifecycle {
        @inline(__always) _read { yield node._lifecycle }
        @inline(__always) nonmutating _modify { yield &node._lifecycle }
    }

    /// A stored value's writes so far, equal ones included.
    subscript<Value>(writes node: _StoredNode<Value>) -> Int {
        @inline(__always) get { node._writes }
        @inline(__always) nonmutating set { node._writes = newValue }
    }

    /// The batch whose staged value this stored value holds (others keep theirs apart).
    subscript<Value>(stagedOwner extras: _StoredExtras<Value>) -> _Ref<_Staging>? {
        @inline(__always) get { extras._stagedOwner }
        @inline(__always) nonmutating set { extras._stagedOwner = newValue }
    }

    /// The writes a stored value's staged value stands for.
    subscript<Value>(stagedWrites extras: _StoredExtras<Value>) -> Int {
        @inline(__always) get { extras._stagedWrites }
        @inline(__always) nonmutating set { extras._stagedWrites = newValue }
    }

    /// Reactions' reads of a stored value's staged value, in the batch's view.
    subscript<Value>(stagedRead extras: _StoredExtras<Value>) -> _StagedRead {
        @inline(__always) get { extras._stagedRead }
        @inline(__always) nonmutating set { extras._stagedRead = newValue }
    }

    /// The stored value that publishes a stored value's write count (``Stored/writeCount``).
    subscript<Value>(writeCounter extras: _StoredExtras<Value>) -> Stored<Int>? {
        @inline(__always) get { extras._writeCounter }
        @inline(__always) nonmutating set { extras._writeCounter = newValue }
    }

    /// The thread inside a compound assignment to a stored value, which other writers wait for.
    subscript<Value>(exclusiveOwner extras: _StoredExtras<Value>) -> _Ref<_ThreadContext>? {
        @inline(__always) get { extras._exclusiveOwner }
        @inline(__always) nonmutating set { extras._exclusiveOwner = newValue }
    }

    /// Nested compound assignments to a stored value by the thread that owns it.
    subscript<Value>(exclusiveDepth extras: _StoredExtras<Value>) -> Int {
        @inline(__always) get { extras._exclusiveDepth }
        @inline(__always) nonmutating set { extras._exclusiveDepth = newValue }
    }

    /// A stored value's Observation subject, once an Observation scope recorded a read of it.
    subscript<Value>(observationRef extras: _StoredExtras<Value>) -> _Ref<_ObservationSubject>? {
        @inline(__always) get { extras._observationRef }
        @inline(__always) nonmutating set { extras._observationRef = newValue }
    }

    /// A stored value's before-change handlers, in the order they were added.
    subscript<Value>(willChangeHandlers extras: _StoredExtras<Value>) -> [_WillChangeHandler<Value>] {
        @inline(__always) get { extras._willChangeHandlers }
        @inline(__always) nonmutating _modify { yield &extras._willChangeHandlers }
    }

    /// The thread calling a stored value's before-change handlers, which must not write it.
    subscript<Value>(willChangeCaller extras: _StoredExtras<Value>) -> _Ref<_ThreadContext>? {
        @inline(__always) get { extras._willChangeCaller }
        @inline(__always) nonmutating set { extras._willChangeCaller = newValue }
    }

    /// Whether the subscriber was cancelled and unlinked from its sources.
    subscript(isDisposed node: _SubscriberNode) -> Bool {
        @inline(__always) get { node._lifecycle.isDisposed }
    }
}

extension _Node {
    /// Whether the node's handle armed an Observation watcher, read without the lock: only by
    /// the handle's `deinit`, when no other thread can set it any more (the field has a byte of
    /// its own for that reason).
    final var hasWatcherWithoutLock: Bool { _hasWatcher }
}
