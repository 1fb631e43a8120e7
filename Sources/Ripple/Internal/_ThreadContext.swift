#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import _RippleRef
internal import _RippleThread

/// Per-thread state of the graph: what the running reaction tracks, batching, and the
/// queues of work that must run after the graph's lock is released.
///
/// Only its own thread touches a context, so it needs no lock, with one exception:
/// `waitingFor`, which other threads read to detect a deadlock, under the graph's lock and
/// through its token (`held[waitingFor: context]`).
@usableFromInline
package final class _ThreadContext {
    /// The reaction whose body is running on this thread, which reads are attributed to.
    /// Not retained: a running reaction is kept alive by its subscription and the delivery queue.
    @exclusivity(unchecked) var reactionRef: _Ref<_DerivedNode>?
    /// The tracking state of the reaction run in progress on this thread (`reactionRef`'s, once
    /// its body runs): a run reads on one thread, with the lock released between reads, so the
    /// state is the thread's. A run nested in another (a reaction created inside a body) saves
    /// the outer one's and restores it when it ends (`_Graph.perform`).
    @exclusivity(unchecked) var runTracking = _Tracking()

    /// The reaction whose body is running on this thread.
    var reaction: _ReactionNode? {
        get { reactionRef.map { _downcast($0.object, to: _ReactionNode.self) } }
        set { reactionRef = newValue.map { _Ref($0 as _DerivedNode) } }
    }
    /// Where reactions created now belong (a running reaction or a ``ReactionScope``).
    /// Not retained: the owner is running (a reaction's body or a scope's `run`) while it is current.
    @exclusivity(unchecked) unowned(unsafe) var owner: (any _Owner)?
    /// Runs `body` with `reaction` as the reaction running on this thread and `owner` as the
    /// owner of what it creates, then puts back those it replaced. They are saved unretained:
    /// they stay alive while their own run, further down the stack, waits for this one.
    @inline(__always)
    func running(_ reaction: _Ref<_DerivedNode>?, ownedBy owner: (any _Owner)?, _ body: () -> Void) {
        let savedReaction = reactionRef
        unowned(unsafe) let savedOwner = self.owner
        reactionRef = reaction
        self.owner = owner
        body()
        reactionRef = savedReaction
        self.owner = savedOwner
    }
    /// Runs `body` with no owner, then puts back the one it replaced, saved unretained as in
    /// ``running(_:ownedBy:_:)`` (a store hands each change to its subscribers here: a copy of
    /// the owner, their dispatching reaction, cost a retain and a release per delivery).
    @inline(__always)
    func withoutOwner<R>(_ body: () throws -> R) rethrows -> R {
        unowned(unsafe) let savedOwner = owner
        owner = nil
        defer { owner = savedOwner }
        return try body()
    }
    /// Greater than zero inside `untracked { }`.
    @exclusivity(unchecked) var untrackedDepth = 0
    /// Times Observation hashed the probe key path on this thread (see `_ObservationProbe`).
    @exclusivity(unchecked) var observationProbeHits = 0
    /// Tests: every read at the top level on this thread arms its node for Observation, as when
    /// the probe cannot tell (see `_observationRecordsThisRead`).
    @exclusivity(unchecked) package var armsEveryTopLevelRead = false
    /// Tests: runs after the probe found a top-level read recorded, before the node is armed
    /// (to write in the window between the read and the arming).
    @exclusivity(unchecked) package var afterTrackedReadProbe: (() -> Void)?
    #if RIPPLE_INVARIANTS
    /// Debug builds: the reads on this thread that the fast path finished (tracked or found
    /// untracked) and those it left to the general path (see `_Graph+FastRead.swift`), so that
    /// tests can check which path a read takes.
    @exclusivity(unchecked) package var fastReads = 0
    @exclusivity(unchecked) package var generalReads = 0
    /// Debug builds: of `fastReads`, those recorded inside a derivation without taking the lock
    /// again (`_ReadStart.trackedInDerivation`).
    @exclusivity(unchecked) package var readsInDerivation = 0
    /// Debug builds: the top-level reads of computed values on this thread whose end left the
    /// general path to do (`_UntrackedReadEnd.general`).
    @exclusivity(unchecked) package var generalUntrackedReadEnds = 0
    #endif
    /// Where this thread's writes go, its batches and the writes it queued while delivering
    /// (see `_WritePipeline`).
    @usableFromInline @exclusivity(unchecked) var writes = _WritePipeline()
    /// The jobs this thread's writes queued, run by its delivery (see `_JobQueue`).
    @exclusivity(unchecked) var jobs = _JobQueue()
    /// Observation subjects whose node changed in the current round, told once the lock is
    /// released; each retained until then.
    @exclusivity(unchecked) var notices = _Buffer<_Ref<_ObservationSubject>>()

    /// The read-modify-write region open on this thread (see `Stored+ReadModifyWrite.swift`).
    @exclusivity(unchecked) var readModifyWrite = _ReadModifyWriteRegion()
    /// Values a read-modify-write inside the current batch holds until the batch is applied
    /// (each retained; their other writers wait).
    @exclusivity(unchecked) var reservations: [any _ReadModifyWriteSubject] = []
    /// The value this thread waits to write, while it waits (to detect a deadlock). Read by
    /// other threads: reached only through the token (`held[waitingFor:]`, below).
    @exclusivity(unchecked) fileprivate var _waitingFor: (any _ReadModifyWriteSubject)?

    /// The reaction whose queued write this thread is applying (see `_DeferredWrite.reaction`):
    /// a reaction that this write marks stale is re-triggering itself. Not retained: the
    /// queued write holds it.
    @exclusivity(unchecked) var writerRef: _Ref<_Node>?

    /// The batch's staged writes and private values (see `_Staging`).
    let staging = _Staging()
    /// The batch's only write so far, not yet staged (see `_SoleWrite`).
    @usableFromInline @exclusivity(unchecked) var soleWrite = _SoleWrite()
    #if RIPPLE_INVARIANTS
    /// Tests: the batches whose sole write this thread committed as an unbatched write.
    package var soleWritesCommittedAsWrites = 0
    #endif
    /// The computed value whose derivation runs privately, in the batch's view, on this
    /// thread (see `_Staging`).
    @exclusivity(unchecked) var privateEvaluationRef: _Ref<_DerivedNode>?

    /// The external source of the innermost ``tracked(_:)`` scope open on this thread.
    @exclusivity(unchecked) var observationScopeRef: _Ref<_ExternalSource>?
    /// The external source whose retired Observation registrations this thread is cancelling:
    /// their `onChange` does nothing (see `_Graph.retire`).
    @exclusivity(unchecked) var cancellingObservationRef: _Ref<_ExternalSource>?
    /// Greater than zero inside an `untracked { }` within a `tracked { }`: the `tracked { }`'s
    /// Observation tracking is in force, so reads must not register with Observation there.
    @exclusivity(unchecked) var hidesReads = 0

    /// Trace events recorded on this thread under the lock, delivered once it is released,
    /// each with the tracers of the `withTracer` scopes open when it was recorded.
    var pendingTraces: [_RecordedTrace] = []
    /// True while this thread calls its tracers (events they cause are delivered after).
    var isDeliveringTraces = false
    /// The tracers of the `withTracer` scopes open on this thread.
    var scopedTracers: [any GraphTracer] = []
    /// The reactions run inside each `traceCommit` open on this thread.
    var wokeReactions: [[String]] = []
    /// The commits traced inside the batch in progress on this thread, recorded once it is
    /// applied and its reactions have run (see `traceCommit`, `tracingBatchCommits`). Checked
    /// at the end of every outermost batch: unchecked exclusivity (this thread's own, like the
    /// fields above): with the check enforced, a batched write cost about 85 instructions more.
    @exclusivity(unchecked) var batchCommits: [(store: String, transaction: String)] = []
    /// This thread's number in traces (0 until it traces something).
    var traceThreadNumber = 0

    /// An empty buffer whose storage the graph takes at this thread's next outermost release
    /// (`_Graph.unlockReleasing`), for the references it lets go of after that; the buffer of
    /// the references released then comes back here once they are (`_releaseLater(_:sparing:)`).
    @exclusivity(unchecked) var releasedSpare = _Buffer<_Ref<_Node>>()
    /// True while this thread drains `releaseQueue`.
    @exclusivity(unchecked) var isReleasing = false
    /// Objects whose last reference is dropped by the drain loop, one at a time.
    @exclusivity(unchecked) var releaseQueue: [AnyObject] = []

    init() {}

    deinit {
        soleWrite.storage.deallocate()
    }

    /// Whether this is the process's first thread, asked once (`_callerIsProcessMainThread()`).
    lazy var isProcessMainThread: Bool = _callerIsProcessMainThread()

    /// The calling thread's context.
    static var current: _ThreadContext {
        @inline(__always) get { currentRef.object }
    }

    /// The calling thread's context, as an unretained reference (the thread keeps it alive).
    ///
    /// A call from the client, not inlinable: inlined into an `async` function there, the read
    /// of the thread-local pointer could be reused across a suspension point and find the
    /// context of the thread the function started on (the hazard `_callingThread()` in
    /// `_Lock.swift` avoids for the thread's identity). Tried inlinable once: 7 to 16
    /// instructions less per batched write, reverted for this.
    @usableFromInline
    static var currentRef: _Ref<_ThreadContext> {
        @inline(__always) get {
            if let existing = existingPointer { return _Ref<_ThreadContext>(unsafeAddress: existing) }
            return created()
        }
    }

    /// Creates the calling thread's context, which has none yet.
    @inline(never)
    private static func created() -> _Ref<_ThreadContext> {
        let context = _Ref(retaining: _ThreadContext())
        pthread_setspecific(_contextKey, context.address)
        _ripple_set_context(context.address)
        return context
    }

    /// The address of the calling thread's context if it has one yet, else `nil` (creates
    /// nothing): one load of a thread-local pointer (`_RippleThread.h`), valid anywhere.
    static var existingPointer: UnsafeMutableRawPointer? {
        @inline(__always) get { _ripple_context() }
    }

    /// The calling thread's context if it has one yet, else `nil` (creates nothing).
    static var existingRef: _Ref<_ThreadContext>? {
        @inline(__always) get {
            guard let pointer = existingPointer else { return nil }
            return _Ref(unsafeAddress: pointer)
        }
    }
}

/// One unit of work queued for after the lock is released: a reaction to run, or a node
/// whose change Observation must hear.
///
/// The queue is plain data: no reference counting to copy a job out of it or to empty it.
/// A stored value's notice retains the node by hand when it is queued, and releases it once
/// the round is done. A subscriber (a reaction, or a computed value's Observation watcher) is
/// not retained: it is live, so its sources hold it, and its lifecycle counts the job; if it
/// is disposed while queued it holds itself until its last queued job is done (see
/// `_Lifecycle`); that job then carries the reference (`isRetained`) and drops it.
struct _Job {
    enum Kind: UInt8 {
        /// Run a reaction.
        case reaction
        /// Check a computed value's Observation watcher.
        case watch
        /// Tell Observation a stored value changed.
        case notify
    }

    let kind: Kind
    /// Whether the job holds a reference to its node, dropped once the round is done.
    var isRetained: Bool
    let ref: _Ref<_Node>

    /// A job for a reaction its lifecycle counted (`_Lifecycle.marked(bySelf:)`).
    @inline(__always)
    static func reaction(_ node: _ReactionNode) -> _Job {
        _Job(kind: .reaction, isRetained: false, ref: .init(node))
    }

    /// A job for a watcher its lifecycle counted (`_Lifecycle.jobQueued()`).
    @inline(__always)
    static func watch(_ node: _WatcherNode) -> _Job {
        _Job(kind: .watch, isRetained: false, ref: .init(node))
    }

    @inline(__always)
    static func notify(_ node: _Node) -> _Job {
        _Job(kind: .notify, isRetained: true, ref: .init(retaining: node))
    }
}

/// A write queued while reactions were being delivered.
struct _DeferredWrite {
    let apply: () -> Void
    /// The reaction whose body made the write (nil for a change handler): to name a runaway
    /// loop, and to count a reaction that keeps re-triggering itself (see `_Graph.mark`).
    let reaction: _ReactionNode?
    /// True for a queued step that writes nothing (tracing's bookkeeping around a commit made
    /// inside a reaction, see `traceCommit`): it is not counted as a round toward a runaway
    /// loop, so that installing a tracer never changes when a program stops.
    var writesNothing = false

    /// Who made the write, for a runaway message.
    var origin: String { reaction?.debugLabel ?? "a change handler" }

    /// Applies the write, then runs `commit`, with its reaction recorded as the thread's writer
    /// (restored after, as applying may apply writes queued inside it). The write is staged
    /// when it is applied inside a batch: `commit` applies the batch, still attributed.
    @inline(__always)
    func applyAttributed(_ context: _ThreadContext, then commit: () -> Void = {}) {
        let saved = context.writerRef
        context.writerRef = reaction.map { _Ref($0 as _Node) }
        apply()
        commit()
        context.writerRef = saved
    }
}

let _contextKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
        let pointer: UnsafeMutableRawPointer? = pointer
        if let pointer {
            // Anything the release runs finds no context (and makes a new one if it needs one).
            _ripple_set_context(nil)
            _Ref<_ThreadContext>(unsafeAddress: pointer).release()
        }
    }
    precondition(status == 0, "Ripple: pthread_key_create failed with status \(status)")
    return key
}()

/// Drops the references the edges of `edges` hold from a loop rather than from the caller's stack.
///
/// Freeing a node can free what it captured (handles, closures, sources), which frees more:
/// released naively, a chain of thousands of nodes recurses thousands of deinitializers deep.
/// Deinitializers pass what they hold here; the outermost call drains the queue iteratively,
/// and nested calls (from deinitializers run by the drain) only append.
func _releaseLater(_ edges: consuming _Buffer<_Edge>) {
    let context = _ThreadContext.current
    for index in 0..<edges.count {
        context.releaseQueue.append(_Ref(edges[index].node).takeRetained() as AnyObject)
    }
    _drainReleaseQueue(context)
}

/// Releases references the graph let go of under its lock (see `_Graph.unlockReleasing`), as
/// the edge version of `_releaseLater` does, and keeps their buffer's storage as this thread's
/// spare, unless a release on this thread in the meantime left one there already.
func _releaseLater(_ references: inout _Buffer<_Ref<_Node>>, sparing context: _ThreadContext) {
    for index in 0..<references.count {
        context.releaseQueue.append(references[index].takeRetained() as AnyObject)
    }
    references.removeAllKeepingCapacity()
    if !context.releasedSpare.isAllocated { context.releasedSpare = references.take() }
    _drainReleaseQueue(context)
}

/// Releases one retained reference later, as the edge version of `_releaseLater` does.
func _releaseLater(_ object: _Ref<AnyObject>) {
    let context = _ThreadContext.current
    context.releaseQueue.append(object.takeRetained())
    _drainReleaseQueue(context)
}

/// Drops the queued references one at a time; does nothing if this thread is draining already
/// (a release that queues more: the loop below it takes them).
private func _drainReleaseQueue(_ context: _ThreadContext) {
    if context.isReleasing { return }
    context.isReleasing = true
    while let next = context.releaseQueue.popLast() {
        _ = next
    }
    context.isReleasing = false
}

extension _HeldLock {
    /// The value `context`'s thread waits to write, while it waits (see
    /// `Stored._waitForExclusiveAccess`): the one field of a thread's context that other threads
    /// read, so only under the lock.
    subscript(waitingFor context: _ThreadContext) -> (any _ReadModifyWriteSubject)? {
        @inline(__always) get { context._waitingFor }
        @inline(__always) nonmutating set { context._waitingFor = newValue }
    }
}
