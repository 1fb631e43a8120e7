import Observation
import _RippleRef

/// A value derived from other reactive values, cached and kept up to date.
///
/// The derivation's dependencies are whatever it reads, recorded anew on every evaluation,
/// so branches switch cleanly: a value no longer read no longer triggers it.
///
/// ```swift
/// let isLoggedIn = Stored(false)
/// let hasClickedTip = Stored(false)
/// let isTipHidden = Computed { !isLoggedIn.value || hasClickedTip.value }
/// ```
///
/// A `Computed` is:
/// - **lazy**: nothing is evaluated until the value is read or observed;
/// - **cached**: reading it again without a change upstream does no work;
/// - **cut off by equality**: when it re-evaluates to an equal value (for `Equatable`
///   values, or with an equality you pass), nothing downstream runs;
/// - **glitch-free**: it never sees a mix of old and new values, and evaluates at most once
///   per write or batch.
///
/// A derivation that may fail is written as a throwing closure, `Computed { () throws(E) -> T in … }`:
/// the computed value is then a `Result<T, E>`, its error cached like a value and rethrown by
/// ``get()`` until a source changes (see <doc:AsyncAndFailingDerivations>). A derivation that
/// needs an `await` is an ``AsyncComputed``.
///
/// A `Computed` that nothing reads or observes holds no strong reference from its sources:
/// it is freed when its last owner lets it go.
///
/// The derivation runs on the reading thread while that thread holds the graph, so it must be
/// a pure function of what it reads: it must not write, block on another thread, or await.
/// Side effects belong in ``observe(file:line:_:)`` reactions. (A read that nests derivations
/// more than 256 deep, such as the first read of a long chain, runs the deeper ones on helper
/// threads with fresh stacks while the reading thread waits, holding the graph for them, on
/// every platform.)
///
/// - Complexity: A read of an up-to-date value is O(1). Otherwise it checks the sources in
///   order and re-evaluates only the nodes whose sources really changed.
public final class Computed<Value>: Readable {
    /// Retained by hand in `init` and released through the release queue in `deinit`, so
    /// freeing a long chain of computed values never recurses deeply.
    @usableFromInline
    let nodeRef: _Ref<_ComputedNode<Value>>

    /// The node (a +0 reference; the handle keeps it alive).
    @usableFromInline
    var node: _ComputedNode<Value> { nodeRef.object }
    // The Observation watcher, once a read an Observation scope recorded created it, is in the
    // graph's `watchers` (`node.hasWatcher`), retained by hand for this handle and released in
    // `deinit`: few computed values have one, and each handle is 8 bytes smaller for it.

    /// Creates a computed value with an explicit equality, or none (`nil`: every
    /// re-evaluation counts as a change).
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - isEqual: The cut-off equality, or `nil`. Like the derivation, it runs while the
    ///     reading thread holds the graph, so it must only compare.
    ///   - derive: The derivation. Reads inside it are tracked.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init(
        name: String? = nil,
        equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () -> Value
    ) {
        self.init(name: name, comparingWith: isEqual, file: file, line: line, derive)
    }

    convenience init(
        name: String?, comparingWith isEqual: ((Value, Value) -> Bool)?, file: StaticString, line: UInt,
        _ derive: @escaping () -> Value
    ) {
        let origin = _Origin(name: name, fileID: file, line: line)
        if let isEqual {
            self.init(node: _ComparingComputedNode(origin: origin, isEqual: isEqual, derive: derive))
        } else {
            self.init(node: _ComputedNode(origin: origin, isEqual: nil, derive: derive))
        }
    }

    /// Takes ownership of `node` (retained by hand; see ``node``).
    @usableFromInline
    init(node: _ComputedNode<Value>) {
        nodeRef = _Ref(retaining: node)
    }

    /// Creates a computed value of a type that is not `Equatable`: every re-evaluation
    /// counts as a change.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - derive: The derivation. Reads inside it are tracked.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () -> Value
    ) {
        self.init(name: name, equals: nil, file: file, line: line, derive)
    }

    deinit {
        // Set only through this handle, which is going: no other thread writes it now.
        if node.hasWatcherWithoutLock {
            let node = node
            // The handle's reference is let go of after the lock, with the dropped edges.
            var watcherRef: _Ref<_WatcherNode>?
            let dropped = _graph.withLock { held in
                held[hasWatcher: node] = false
                let taken = _graph.state(held).watchers.removeValue(forKey: ObjectIdentifier(node))!
                watcherRef = taken
                let watcher = taken.object
                watcher.markDisposed(held)
                return _graph.disposeSources(of: watcher, held)
            }
            _releaseLater(dropped)
            watcherRef?.release()
        }
        _releaseLater(_Ref<AnyObject>(node))
    }

    /// The current value, brought up to date if anything it depends on changed.
    @inlinable
    public var value: Value {
        // The common case first, through functions that release nothing (see
        // `_Graph+FastRead.swift`): code that reads handles out of an array retains none.
        // The cases that hold the lock hand its acquisition (`_HeldLock()`) to the read's end.
        switch nodeRef.with({ $0._beginComputedRead() }) {
        case .tracked:
            let current = nodeRef.with { $0.current }
            nodeRef.with { $0._endTrackedRead(copying: Value.self, _HeldLock()) }
            return current
        case .untracked:
            let current = nodeRef.with { $0.current }
            // A value that holds references ends along the general path, whose unlock keeps
            // the copy's retain before it (see the top of `_Graph+FastRead.swift`). Decided
            // when `Value` is known.
            guard _isPOD(Value.self) else {
                _untrackedRead(_HeldLock())
                return current
            }
            switch nodeRef.with({ $0._endUntrackedComputedRead() }) {
            case .done: break
            case .arm: nodeRef.with { $0._armRecordedComputedRead() }
            case .general: _untrackedRead(_HeldLock())
            }
            return current
        case .general:
            return _generalRead(of: nodeRef, _HeldLock())
        }
    }

    /// A read that no derivation or reaction tracked, under `held`, which it releases. If an
    /// Observation tracking scope records it, the Observation watcher is armed and the access
    /// registered (see `_Graph.finishUntrackedRead`). Read anywhere else, the value stays lazy:
    /// later writes do not evaluate it. Nothing here depends on `Value`: one call into the graph.
    @inlinable
    func _untrackedRead(_ held: consuming _HeldLock) {
        nodeRef.with(handing: held) { $0._finishUntrackedComputedRead($1) }
    }
}

/// A computed value's read that the fast path (`_beginComputedRead`) left to the graph, under
/// `held`, which it releases: a value to bring up to date, a batch staging on some thread, a
/// read that adds or replaces an edge, or the first read on a thread. Not inlined, so that code
/// reading in a loop stays small; inlinable, so that it is compiled for `Value`.
///
/// A function given the node's unretained reference (`_Ref`), not a method of the handle nor one called
/// on a reference the getter obtains: either way the caller would keep the handle alive
/// across the call, and code that reads handles out of an array (`for branch in branches {
/// total += branch.value }`) retained and released each handle it read this way, two atomic
/// operations per stale value. The graph keeps the node alive instead, before any derivation
/// runs (`_Graph.refreshAndTrackUnheld`).
@inlinable @inline(never)
func _generalRead<Value>(of nodeRef: _Ref<_ComputedNode<Value>>, _ held: consuming _HeldLock) -> Value {
    // Guaranteed references: the read does no reference counting of its own.
    // False when some thread is inside a batch with staged writes (this thread may be it),
    // or when nothing tracks the read.
    if nodeRef.with({ $0._refreshAndTrack(held) }) {
        let current = nodeRef.with { $0.current }
        held.releaseAfterRead(nodeRef.with { $0.graphRef })
        return current
    }
    // The lock is still held, and so is the node (until the lock is released).
    if nodeRef.with({ $0._isAnyThreadStaging }) { return _readStaged(of: nodeRef, held) }
    let untrackedCurrent = nodeRef.with { $0.current }
    nodeRef.with(handing: held) { $0._finishUntrackedComputedRead($1) }
    return untrackedCurrent
}

/// `_generalRead(of:_:)` while some thread is staging a batch, under `held`, which it
/// releases. A call of its own: the closure it passes would otherwise take stack space in the
/// general read's frame, once per level of a nested first evaluation (a chain of a million
/// computed values peaked 30 MiB higher).
@inlinable @inline(never)
func _readStaged<Value>(of nodeRef: _Ref<_ComputedNode<Value>>, _ held: consuming _HeldLock) -> Value {
    Computed<Value>._readStaged(nodeRef.object, held) { held in
        nodeRef.with(handing: held) { $0._finishUntrackedComputedRead($1) }
    }
}

extension Computed where Value: Equatable {
    /// Creates a computed value cut off by `==`: re-evaluating to an equal value notifies nobody.
    ///
    /// ```swift
    /// let total = Computed { prices.value.reduce(0, +) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - derive: The derivation. Reads inside it are tracked.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () -> Value
    ) {
        self.init(node: Self._equatableNode(name: name, file: file, line: line, derive))
    }

    /// Creates a computed value cut off by `==`, named `describe()` the first time a trace or a
    /// diagnostic reads its name: for a name that costs more to make than the value (a store
    /// names its key-path slices after the key path, whose description takes microseconds).
    ///
    /// ```swift
    /// let count = Computed(describedBy: { "store\(path)" }) { store.state.count }
    /// ```
    ///
    /// - Parameters:
    ///   - describe: Makes the name when it is first read (threads reading it first at the
    ///     same time may each make it; the first one kept wins). It may run under the graph's
    ///     lock, so it must not read reactive values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation. Reads inside it are tracked.
    @inlinable
    package convenience init(
        describedBy describe: @escaping @Sendable () -> String,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @Sendable () -> Value
    ) {
        self.init(node: Self._equatableNode(origin: _Origin(describedBy: describe, fileID: file, line: line), derive))
    }

    /// A node cut off by `==` whose evaluation is compiled for the concrete type at the call
    /// site, so evaluating it does no generic dispatch.
    @inlinable
    static func _equatableNode(name: String?, file: StaticString, line: UInt, _ derive: @escaping () -> Value)
        -> _ComputedNode<Value>
    {
        _equatableNode(origin: _Origin(name: name, fileID: file, line: line), derive)
    }

    /// ``_equatableNode(name:file:line:_:)`` with its origin made.
    @inlinable
    static func _equatableNode(origin: _Origin, _ derive: @escaping () -> Value) -> _ComputedNode<Value> {
        let node = _ComputedNode<Value>(
            origin: origin,
            isEqual: { $0 == $1 },
            derive: derive,
            // Captures nothing (the derivation is read from the node), so it needs no allocation.
            specializedEvaluate: { node in
                let node = _downcast(node, to: _ComputedNode<Value>.self)
                let newValue = node.derive()
                if let old = node.cached, old == newValue { return false }
                node._replaceCached(newValue)
                return true
            }
        )
        node.comparesWithEquals = true
        return node
    }
}

extension Computed: @unchecked Sendable where Value: Sendable {}

extension Computed: Observable {}

extension Computed: CustomStringConvertible {
    /// Where the computed value was created.
    public var description: String {
        "Computed\(node.origin)"
    }
}
