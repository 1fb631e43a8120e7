import _RippleThread
import _RippleRef

/// The reactive graph: one lock, a write epoch, and the algorithms over `_Node`.
///
/// Writes push a *stale* mark through live observers and queue the reactions they reach;
/// reads pull: a node brings its stale or unverified sources up to date first (iteratively,
/// with an explicit stack) and re-evaluates only when one of them really changed. That gives
/// glitch-free values and at most one evaluation per node per write or batch.
@usableFromInline
package final class _Graph: @unchecked Sendable {
    /// Guards every node, `guarded` and the four counts below.
    @usableFromInline package let lock = _Lock()
    /// The state the lock guards, reached only through an acquisition (see `state(_:)`), and
    /// directly only by the lock's release in this file (`unlock`, `waitForBroadcast`, the
    /// release queue's `releaseAfterUnlock` and `keepUntilUnlock`).
    private let guarded = _GraphState()
    // The four counts below are guarded by the lock too, but stay here: code inlined into
    // clients (`@inlinable` reads and writes) tests them, and cannot reach the private
    // `guarded`. Each is written under the lock.
    /// Read-modify-write regions open on any thread: while zero, a stored value's read skips
    /// the region check (one load on the read path).
    @usableFromInline @exclusivity(unchecked) var readModifyWriteRegions = 0
    /// Threads inside a batch with staged writes (see `_Staging`): while it is zero, reads
    /// skip every check of staged values.
    @usableFromInline @exclusivity(unchecked) var stagingThreads = 0
    /// Threads inside an `untracked { }` within a `tracked { }` (see `_ThreadContext.hidesReads`):
    /// while zero, a read outside Ripple's tracking skips that check (one load, on the path of
    /// reads that register with Observation only).
    @usableFromInline @exclusivity(unchecked) var readsHidden = 0
    /// Tracers installed, process-wide and scoped (see `GraphTracer`): while zero, the graph
    /// records no trace (one load, under a lock the caller already holds).
    @usableFromInline @exclusivity(unchecked) var tracingCount = 0
    /// `tracingCount`, copied for reads made without the lock, where a stale value is harmless:
    /// `traceCommit` on every store commit and a batch's first write (while a tracer is
    /// installed, it is staged, see `_SoleWrite`).
    /// A C word (`_ripple_relaxed_load`): `Atomic` needs macOS 15 / iOS 18. Never deallocated:
    /// the graph lives as long as the process.
    let tracersInstalled: UnsafeMutablePointer<UInt> = {
        let word = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()
    /// Whether a tracer is installed, read without the lock (see `tracersInstalled`).
    var hasTracersInstalled: Bool { _ripple_relaxed_load(tracersInstalled) != 0 }
    /// Copies `tracingCount` to `tracersInstalled`.
    func noteTracersInstalled(_ held: borrowing _HeldLock) {
        _ripple_relaxed_store(tracersInstalled, UInt(tracingCount))
    }
    /// The stored values that have before-change handlers (``Stored/willChange(_:)``), counted
    /// under the lock and read without it by a batch's first write: while any has, a batch's
    /// write is staged at once, where the handlers are called (see `_SoleWrite`). A C word, as
    /// `tracersInstalled` (`Atomic` needs macOS 15 / iOS 18); never freed.
    let willChangeNodes: UnsafeMutablePointer<UInt> = {
        let word = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()
    /// Whether a stored value has before-change handlers, read without the lock.
    var hasWillChangeNodes: Bool { _ripple_relaxed_load(willChangeNodes) != 0 }
    /// Adds `delta` to `willChangeNodes` (lock held, except from a value's `deinit`).
    func countWillChangeNodes(by delta: Int) {
        _ripple_relaxed_add(willChangeNodes, delta)
    }

    /// Rounds of writes made inside reactions, in one delivery, before Ripple calls it a loop.
    package static let maximumRounds = 10_000  // below UInt16.max: see `_Lifecycle.selfTriggeredRuns`

    init() {}

    /// Drops `ref` once the lock is released.
    @inline(__always)
    func releaseAfterUnlock(_ ref: _Ref<_Node>, _ held: borrowing _HeldLock) {
        assertLockHeld()
        guarded.releasedUnderLock.append(ref)
    }

    /// Releases the lock; after the outermost release, drops the references let go of under it.
    @inline(__always)
    func unlock() {
        #if RIPPLE_INVARIANTS
        checkNotEvaluatingAtOutermostUnlock()
        #endif
        if guarded.releasedUnderLock.isEmpty {
            lock.unlock()
        } else {
            unlockReleasing()
        }
    }

    @inline(never)
    private func unlockReleasing() {
        guard lock.isHeldOnce else {
            lock.unlock()
            return
        }
        // The references leave the graph's buffer, and the graph takes this thread's spare
        // storage for its next releases: no buffer is allocated and freed per release (see
        // `_ThreadContext.releasedSpare`).
        let context = _ThreadContext.current
        var released = guarded.releasedUnderLock.take()
        guarded.releasedUnderLock = context.releasedSpare.take()
        var values: [Any] = []
        if !guarded.releasedValues.isEmpty { swap(&values, &guarded.releasedValues) }
        let work = guarded.observationWork
        if !work.isEmpty { guarded.observationWork = [] }
        let tracing = guarded.pendingTraceThreads != 0
        lock.unlock()
        if !work.isEmpty {
            for item in work { item.perform(context) }
        }
        if tracing { context.deliverTraces() }
        // Released only now, after the work and the traces: a work item's source is kept alive
        // by its reference here (see `_ExternalSource`). The storage becomes the spare again.
        _releaseLater(&released, sparing: context)
        // Replaced computed values, released only now.
        withExtendedLifetime(values) {}
    }

    #if RIPPLE_INVARIANTS
    /// Debug builds: the outermost release of the lock happens with no derivation running. A
    /// derivation runs inside the read that asked for it, which holds the lock: releasing it
    /// before the derivation ends would let another thread see the evaluation in progress
    /// (`evaluatingRef`) and track its own reads into it. Part of the release, so it reads the
    /// guarded state directly. O(1).
    func checkNotEvaluatingAtOutermostUnlock() {
        guard lock.isHeldOnce, let evaluating = guarded.evaluatingRef ?? guarded.suspendedEvaluatingRef else { return }
        _rippleFailure(
            "internal invariant: the graph's lock released while \(evaluating.object.debugLabel) is being evaluated"
        )
    }
    #endif

    /// Releases the lock (held once) until another thread broadcasts, and takes it again.
    /// While it waited, other threads' releases may have taken what sends this thread's next
    /// release down the path that delivers its trace events: that is put back.
    ///
    /// The release made here is not an outermost release's: what this thread queued in
    /// `releasedUnderLock` before it waited stays queued, and other threads take the lock
    /// meanwhile with it there. A general release by one of them releases it; a read through the
    /// fast path, which releases nothing, leaves it (see `_endTrackedRead`). It is released at
    /// the latest by this thread's own outermost release, where it would have been without the
    /// wait.
    func waitForBroadcast(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        #if RIPPLE_INVARIANTS
        guarded.threadsWaitingForBroadcast += 1
        #endif
        lock.wait()
        #if RIPPLE_INVARIANTS
        guarded.threadsWaitingForBroadcast -= 1
        #endif
        rearmTraceDelivery(context, held)
    }

    /// Keeps a computed value's replaced value until the lock is released (lock held): its
    /// deinitializer is user code. Also used for the strong reference a weak-owner derivation
    /// takes to its owner (see `_OwnedDerivation`).
    ///
    /// The one function outside the lock's release that reaches the guarded state without the
    /// token: its callers run inside a derivation (`_ComputedNode._replaceCached`, a derivation's
    /// owner), under the evaluating thread's acquisition, whose token (`recompute`'s) does not
    /// cross the type-erased evaluation into the user's code. It only appends to the queue the
    /// release drains, declared here; debug builds check the lock is held.
    @usableFromInline
    func keepUntilUnlock(_ value: Any) {
        assertLockHeld()
        // An entry in `releasedUnderLock` sends `unlock` down the path that drains both.
        if guarded.releasedValues.isEmpty { guarded.releasedUnderLock.append(_tombstone.retain()) }
        guarded.releasedValues.append(value)
    }

    /// Runs `body` with the lock held, then releases it as ``unlock()`` does. `body` must not
    /// call user code (derivations excepted).
    @inline(__always)
    func withLock<R: ~Copyable>(_ body: () throws -> R) rethrows -> R {
        try withLock { (_: borrowing _HeldLock) throws -> R in try body() }
    }

    /// Whether a derivation runs on the calling thread, which holds the lock: a shared one
    /// (perhaps suspended by `untracked { }`), or a batch's private one on `context` (`nil`:
    /// shared ones only).
    @inline(__always)
    func isDeriving(on context: _ThreadContext?, _ held: borrowing _HeldLock) -> Bool {
        let locked = state(held)
        return locked.evaluatingRef != nil || locked.suspendedEvaluatingRef != nil
            || context?.privateEvaluationRef != nil
    }

    /// Stops a write to `node` made by a derivation running on this thread (with `context`, a
    /// batch's private evaluation on it too), or from inside the equality check of the write
    /// being applied. The stops are calls from here, not from the callers: a caller
    /// holding its token in a variable then has no path that ends before the token's end.
    @inline(__always)
    func refuseWrite(to node: _Node, on context: _ThreadContext?, _ held: borrowing _HeldLock) {
        if isDeriving(on: context, held) { failWriteDuringEvaluation(of: node, held, context) }
        if state(held).comparingRef != nil { failWriteDuringEqualityCheck(of: node, held) }
    }

    /// Stops a write to `node` made while a derivation runs on this thread, even
    /// inside `untracked { }` or a batch's private evaluation: a computed value must not write.
    func failWriteDuringEvaluation(of node: _Node, _ held: borrowing _HeldLock, _ context: _ThreadContext? = nil)
        -> Never
    {
        let evaluating =
            (state(held).evaluatingRef ?? state(held).suspendedEvaluatingRef ?? context?.privateEvaluationRef)!
            .object
        let label = evaluating.debugLabel
        unlock()
        _rippleFailure(
            "\(node.debugLabel) was written while \(label) was being evaluated. A computed value must not write, not even inside untracked { }; use a reaction (observe) instead."
        )
    }

    /// Stops a write to `node` made by the equality check of the write being applied (lock
    /// held): an equality check runs while the writing thread holds the graph, and must only
    /// compare.
    @inline(never)
    func failWriteDuringEqualityCheck(of node: _Node, _ held: borrowing _HeldLock) -> Never {
        let label = state(held).comparingRef.map { $0.object.debugLabel } ?? "a stored value"
        unlock()
        _rippleFailure(
            "\(node.debugLabel) was written while the equality check of \(label) was running. An equality check (`equals:`) runs while Ripple holds the graph; it must only compare its two values."
        )
    }

    /// Stops a batch write to `node` when 65 535 threads' batches already stage it:
    /// the count of staging threads is 16 bits (see `_Node._stagedCount`).
    @inline(never)
    func failTooManyStagingThreads(of node: _Node, _ held: borrowing _HeldLock) -> Never {
        let label = node.debugLabel
        unlock()
        _rippleFailure(
            "\(label) is staged by more than \(UInt16.max - 1) threads' batches at once; a batch writing it on yet another thread cannot be staged."
        )
    }

    @inline(__always)
    func makeID(_ held: borrowing _HeldLock) -> Int {
        state(held).nextID &+= 1
        return state(held).nextID
    }
}

/// The graph's state that only the thread holding its lock may touch, reachable only through
/// an acquisition: `graph.state(held)`, where `held` is the acquisition's token
/// (``_HeldLock``), handed to the function that needs it or by `graph.withLock { held in … }`.
/// A function that needs one of these fields says so in its signature, by taking the token;
/// no comment saying "lock held" stands in for it. (`guarded`, the graph's reference to it, is
/// private to this file: `state(_:)` and `withLock(_:)` hand it out, and the lock's release
/// here reads it.)
///
/// A class, made once with the graph and kept for the life of the process: reaching it is one
/// load, and handing it on costs no reference counting once inlined. A function that reads it
/// more than once binds it once (`let locked = state(held)`). Its fields skip the run-time
/// exclusivity check (`@exclusivity(unchecked)`): every access is made under the lock, which
/// the token stands for, and the check doubled the instructions of a write on a deep chain
/// (14 415 → 32 510, `count-instructions.sh deep`).
///
/// The nodes' own fields are guarded by the same lock and are not here (see `_Node`).
final class _GraphState {
    /// The values each reaction that records why it runs saw at its last run, by source (see
    /// `whyDidThisRun()`).
    @exclusivity(unchecked) var whySnapshots: [ObjectIdentifier: [ObjectIdentifier: Any]] = [:]
    /// The versions of the sources of each recording reaction's last run, noted when its next
    /// run starts (see `_ReactionNode.recordRunStart`).
    @exclusivity(unchecked) var whyBaselines: [ObjectIdentifier: [(source: _Ref<_Node>, version: Int)]] = [:]
    /// The changes that started each recording reaction's current run, with its name.
    @exclusivity(unchecked) var whyChanges: [ObjectIdentifier: (name: String?, changes: [_PendingSourceChange])] = [:]
    /// Scratch stack of propagation and (de)activation (nodes kept alive by their edges).
    @exclusivity(unchecked) var scratch = _Stack<_Ref<_Node>>()
    /// Scratch stack of the iterative source check.
    @exclusivity(unchecked) var walk = _Stack<_WalkFrame>()
    /// The tracking state of the computed evaluation in progress on the lock's owner (see
    /// `recompute`): kept here rather than in every computed node, since a computed value is
    /// only ever evaluated by the thread holding the lock, nested evaluations strictly inside
    /// the one they interrupt. Each saves the state it interrupts on its own stack.
    @exclusivity(unchecked) var evaluation = _Tracking()
    /// Where the evaluation in progress starts in `replacedByEvaluations`.
    @exclusivity(unchecked) var evaluationReplacedBase = 0
    /// Sources that the computed evaluations in progress replaced while their node was live,
    /// unsubscribed when each evaluation ends. Each owns the part from its base, nested ones
    /// above it; their links name them by `~index` into this buffer.
    @exclusivity(unchecked) var replacedByEvaluations = _Buffer<_Edge>()
    /// Sources that reaction runs in progress replaced while the reaction was live, by
    /// reaction, unsubscribed when its run ends (their links name them by `~index`). Rare (a
    /// run that reads other sources than the last one, in another order), so kept here rather
    /// than in every subscriber.
    @exclusivity(unchecked) var replacedByRuns: [ObjectIdentifier: [_Edge]] = [:]
    /// Allocations of emptied observer lists of one link, for the next list to get a first
    /// observer (see `_ObserverList`).
    @exclusivity(unchecked) var spareObserverBlocks = _SpareObserverBlocks()
    /// The computed values whose derivations are running, outermost first (to name a cycle):
    /// kept here rather than as a parent reference in every node.
    @exclusivity(unchecked) var evaluationChain = _Stack<_Ref<_DerivedNode>>()
    /// How many more refreshes may nest on the stack of the thread running them before the
    /// next one moves to a fresh stack (see `refresh`).
    @exclusivity(unchecked) var levelsLeftOnStack = _Graph.levelsOnReadingThread
    /// What to do when a value flagged `notifiesWhenUnobserved` loses its last live observer, by
    /// node (see `_Graph+Unobserved.swift`). Few values have one: only ``AsyncComputed`` phases.
    @exclusivity(unchecked) var unobservedHandlers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// The Observation watchers of computed values whose handle armed one (`_Node.hasWatcher`),
    /// by node, each retained by hand for the handle, which releases it when it goes. Kept here
    /// rather than in every handle: few computed values are read in an Observation scope, and
    /// the read of one that is looks it up under a lock it holds anyway.
    @exclusivity(unchecked) var watchers: [ObjectIdentifier: _Ref<_WatcherNode>] = [:]
    /// The external source of each node that read Observation models inside ``tracked(_:)``
    /// (see `_ExternalSource`), kept apart so that nodes pay no memory for it.
    @exclusivity(unchecked) var externalSources: [ObjectIdentifier: _ExternalSource] = [:]
    /// Bumped by every write that changes a value.
    @exclusivity(unchecked) var epoch = 0
    /// Source of evaluation ids and batch ids.
    @exclusivity(unchecked) var nextID = 0
    /// The computed value whose derivation is running on the lock's owner thread.
    @exclusivity(unchecked) var evaluatingRef: _Ref<_DerivedNode>?
    /// The stored value whose write the lock's owner is applying: set from the moment the write
    /// holds the lock until it is committed or found equal, the time in which the value's
    /// equality check (user code) runs. A write made then, from inside the check, fails with a
    /// message (see `failWriteDuringEqualityCheck`).
    @exclusivity(unchecked) var comparingRef: _Ref<_Node>?
    /// The derivation an `untracked { }` block inside it suspended (lock owner's thread): its
    /// reads are not tracked, but it is still evaluating, so it still must not write.
    @exclusivity(unchecked) var suspendedEvaluatingRef: _Ref<_DerivedNode>?
    /// For each private value a reaction read, in a batch's view, of a computed value with an
    /// equality, by reaction and computed value: whether a committed value is the one it saw
    /// (see `_Graph+PrivateReads.swift`).
    @exclusivity(unchecked) var privateReads: [_PrivateRead: (Any) -> Bool] = [:] {
        didSet { hasPrivateReads = !privateReads.isEmpty }
    }
    /// `!privateReads.isEmpty`, tested on every reaction's run and check: one load.
    @exclusivity(unchecked) var hasPrivateReads = false
    /// While helper threads refresh for a reading thread (see `refreshOnFreshStack`), that
    /// thread's context: the events the helpers record are the reader's, delivered when it
    /// releases the lock. `nil` otherwise.
    @exclusivity(unchecked) var helpedReaderContext: _Ref<_ThreadContext>?
    /// Observation work to do once the lock is released: registrations of earlier evaluations
    /// to cancel, changes reported from inside a derivation (see `_ObservationWork`). Each item
    /// forces the release that follows the outermost unlock.
    @exclusivity(unchecked) var observationWork: [_ObservationWork] = []
    /// Stored values some thread holds for a read-modify-write: while zero, a batch's commit
    /// checks none of its values.
    @exclusivity(unchecked) var exclusiveOwners = 0

    /// The computed value whose derivation is running on the lock's owner thread.
    var evaluating: _DerivedNode? {
        get { evaluatingRef?.object }
        set { evaluatingRef = newValue.map { _Ref($0) } }
    }
    /// The reaction runs in progress and the values kept for them (see `_RunSnapshots`). While
    /// any value is kept, it counts as one staging thread.
    @exclusivity(unchecked) var snapshots = _RunSnapshots()
    /// References the graph let go of while the lock was held (dropped edges and links),
    /// released once the lock is released: the last one may free a node and whatever its
    /// closures captured, and user deinitializers must not run under the lock.
    @exclusivity(unchecked) var releasedUnderLock = _Buffer<_Ref<_Node>>()
    /// Values a computed value replaced while the lock was held, released with it (see
    /// `keepUntilUnlock`).
    @exclusivity(unchecked) var releasedValues: [Any] = []
    /// Threads with recorded trace events not yet delivered: while it is not zero, the
    /// outermost release of the lock delivers the releasing thread's events.
    @exclusivity(unchecked) var pendingTraceThreads = 0
    #if RIPPLE_INVARIANTS
    /// Threads inside `waitForBroadcast` (changed with the lock held): while one is, the lock
    /// may be free with references still queued in `releasedUnderLock` (see `_endTrackedRead`).
    @exclusivity(unchecked) var threadsWaitingForBroadcast = 0
    #endif
}

// The only way to the guarded state: declared in this file, where `guarded` is visible.
extension _Graph {
    /// The state the lock guards, for the holder of the acquisition `held`.
    ///
    /// - Complexity: O(1): one load.
    @inline(__always)
    func state(_ held: borrowing _HeldLock) -> _GraphState {
        guarded
    }

    /// Runs `body` with the lock held, handing it the acquisition (for `state(_:)` and the
    /// functions that need the lock), then releases it as ``unlock()`` does. `body` must not
    /// call user code (derivations excepted).
    @inline(__always)
    func withLock<R: ~Copyable>(_ body: (borrowing _HeldLock) throws -> R) rethrows -> R {
        let held = takeLock()
        // What `body` reads is as the batch sees it, its sole write included (see `_SoleWrite`).
        _stageSoleWriteOfCallingThread(held)
        let result: R
        do {
            result = try body(held)
        } catch {
            held.release(self)
            throw error
        }
        held.release(self)
        return result
    }
}

/// A frame of the iterative source check. The node is kept alive by the edge that led to it.
struct _WalkFrame {
    let ref: _Ref<_DerivedNode>
    var index: Int
}

/// The placeholder left in an observer list where an observer was removed. A stored node:
/// propagation passes over it.
nonisolated(unsafe) let _tombstone = _Ref(retaining: _Node(kind: .stored))

/// A stack of plain values (the source check's frames, propagation's nodes) in plain memory,
/// grown by doubling, so pushing and popping does no reference counting and no uniqueness
/// check. Nested walks push above the entries of the outer one; no pointer into it is kept
/// across a call that may push. It lives as long as the graph, so it is never freed.
struct _Stack<Element> {
    private var base = UnsafeMutablePointer<Element>.allocate(capacity: 64)
    private var capacity = 64
    private(set) var count = 0

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(__always) @discardableResult
    mutating func removeLast() -> Element {
        count &-= 1
        return (base + count).move()
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}

/// The process-wide graph every Ripple node belongs to.
@usableFromInline
package let _graph: _Graph = {
    let graph = _Graph()
    _probePointer = _probeRef.address
    _graphPointer = _Ref(graph).address
    return graph
}()

/// The graph's address, set once when `_graph` is initialised, before any node exists (a
/// node's initializer touches `_graphRef` first). A global with a constant initial value: reading
/// it is a plain load, with no lazy-initialisation check, so nodes reach the graph through it
/// (`_Node.graphRef`) instead of keeping a copy each (8 bytes per node). Any thread that holds a
/// node got it after the graph was created, through whatever handed it the node.
@usableFromInline
@exclusivity(unchecked) nonisolated(unsafe) var _graphPointer: UnsafeMutableRawPointer?

/// The graph as an unretained reference (`_Ref`), for hot paths: `_Ref.with(_:)` reaches
/// it without the retain and release that using the global `_graph` costs. The global keeps
/// it alive for the life of the process. Nodes use `_graphPointer` instead (`_Node.graphRef`),
/// which does not even pay the global's lazy-initialisation check.
let _graphRef = _Ref(_graph)

/// The graph, through `_graphPointer`, for code that runs only once a node exists (a batch's
/// commit, a write): no lazy-initialisation check. `nil` before the first node is created.
@inline(__always)
var _createdGraphRef: _Ref<_Graph>? {
    _graphPointer.map { _Ref(unsafeAddress: $0) }
}

/// The graph, through `_graphPointer`, for code that runs only once a node exists, and knows it
/// (a batch that staged something): not even the check for `nil`.
@inline(__always)
var _existingGraphRef: _Ref<_Graph> {
    _Ref(unsafeAddress: _graphPointer.unsafelyUnwrapped)
}

/// The Observation probe's address (`_probeRef`), set once with the graph's: a global with a
/// constant initial value, read with a plain load where `_probeRef` costs a call to check its
/// lazy initialisation.
@exclusivity(unchecked) nonisolated(unsafe) var _probePointer: UnsafeMutableRawPointer?

/// The Observation probe (see `_observationRecordsThisRead`), through `_probePointer`, for code
/// that runs only after a read of a node, so once the graph and the probe exist.
@inline(__always)
var _createdProbeRef: _Ref<_ProbeState> {
    _Ref(unsafeAddress: _probePointer.unsafelyUnwrapped)
}

/// Stops the program with a message that says what went wrong; printed in every build mode.
func _rippleFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("Ripple: " + message(), file: file, line: line)
}
