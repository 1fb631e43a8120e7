/// The calling thread's writes: where a write made now goes, the batches the thread is in,
/// and the writes it queued while delivering reactions (the jobs its writes queued, the
/// reactions to run, are in its `_JobQueue`).
///
/// One per thread (`_ThreadContext.writes`), touched only by that thread. A pure state
/// machine: each transition updates the state and says what the caller must do next (commit a
/// batch, deliver, apply a queued write); the caller does it, and calls back when done. Every
/// write in Ripple asks ``route`` where it goes: a stored value's setter and `trigger()`, a
/// read-modify-write, an `Event`'s send, `writeInOrder`, a tracer's scope, a model change seen
/// through Observation. (Code that only needs to know whether the thread is in a batch or
/// delivering, such as the tracing of a store's commit, reads ``batchDepth`` and
/// ``isDelivering``.)
///
/// The routes:
/// - ``Route/apply``: outside any batch and delivery, the write is applied at once and
///   delivered (`Stored._writeAndDeliver`).
/// - ``Route/stage``: inside `batch { }`, the write is staged, and applied with the batch's
///   other writes when the outermost batch ends (``endBatch()`` says ``BatchEnd/commit``). A
///   batch's first write is kept aside first (`_SoleWrite`), and a batch that made only that
///   write commits it as an applied write.
/// - ``Route/queue``: while the thread delivers reactions, the write is queued
///   (``queue(_:)``) and applied after the current round, each queued write (or batch of them)
///   in a round of its own (``nextRound()``), staged and committed like a batch. Delivery work
///   begun inside a batch (a reaction created, or an event sent, in a batch or in a round)
///   applies the writes it queued at its end, as part of that batch (``beginDeliveryWork()``).
///
/// So a write is applied at once, or staged and applied with its batch, and queued writes are
/// batches applied later: the graph's side of every route is the same (the write's graph half,
/// in `Stored.swift`).
@usableFromInline
struct _WritePipeline {
    /// Where a write made now goes.
    @usableFromInline
    enum Route {
        /// Applied at once, then delivered.
        case apply
        /// Staged in the enclosing batch.
        case stage
        /// Queued after the current round of reactions.
        case queue
    }

    /// Greater than zero inside `batch { }` (and while a queued round is applied).
    @usableFromInline private(set) var batchDepth = 0
    /// True while this thread delivers reactions: writes made now are queued.
    @usableFromInline private(set) var isDelivering = false
    /// The batch depth at which the current delivery started: only batches opened above it,
    /// during the delivery, collect their writes in `queuedBatch`. (A delivery can start inside
    /// a user's batch: a reaction's first run, or an event sent in a batch.)
    private var deliveryBatchDepth = 0
    /// Writes made while delivering, applied one round at a time after the current round.
    private var queued: [_DeferredWrite] = []
    private var queuedHead = 0
    /// Writes made inside a batch that was opened while delivering; queued as one unit.
    private var queuedBatch: [_DeferredWrite] = []
    /// Rounds of the current delivery that wrote something (a runaway loop past
    /// `_Graph.maximumRounds`).
    private var rounds = 0

    @usableFromInline
    init() {}

    /// Where a write made now goes.
    @inlinable
    var route: Route {
        if isDelivering { return .queue }
        return batchDepth > 0 ? .stage : .apply
    }

    /// Whether the thread may deliver reactions now: not delivering already, outside any batch.
    var mayDeliver: Bool { !isDelivering && batchDepth == 0 }

    /// Whether a queued write waits for its round.
    var hasQueuedWrites: Bool { queuedHead < queued.count }

    // MARK: Batches

    /// A `batch { }` begins.
    @inlinable
    mutating func beginBatch() {
        batchDepth += 1
    }

    /// What to do when a batch ends.
    enum BatchEnd {
        /// Nothing to do: an inner batch, or one that ends while delivering (the writes of the
        /// outermost batch opened during the delivery are queued now, as one unit).
        case inner
        /// The outermost batch ended: apply its staged writes, then deliver.
        case commit
    }

    /// A `batch { }` ends. (Inlined: it ends every batch, most often with `commit`.)
    @inline(__always)
    mutating func endBatch() -> BatchEnd {
        batchDepth -= 1
        if isDelivering {
            if batchDepth == deliveryBatchDepth, !queuedBatch.isEmpty { queueBatch() }
            return .inner
        }
        return batchDepth == 0 ? .commit : .inner
    }

    /// The outermost batch opened during this delivery ended: its writes are queued as one
    /// unit.
    @inline(never)
    private mutating func queueBatch() {
        let writes = queuedBatch
        queuedBatch = []
        queued.append(
            _DeferredWrite(
                apply: { for write in writes { write.apply() } },
                reaction: writes[0].reaction,
                // Only tracing's steps (see `withTracer`, `traceCommit`): not a round.
                writesNothing: writes.allSatisfy(\.writesNothing)
            ))
    }

    // MARK: Queued writes

    /// Queues a write made while delivering (``Route/queue``): after the current round, or,
    /// inside a batch opened during the delivery, with that batch's other writes.
    mutating func queue(_ write: _DeferredWrite) {
        if batchDepth > deliveryBatchDepth {
            queuedBatch.append(write)
        } else {
            queued.append(write)
        }
    }

    /// Queues `step` (which writes nothing) before every queued write.
    mutating func queueFirst(_ step: _DeferredWrite) {
        queued.insert(step, at: queuedHead)
    }

    // MARK: Delivery

    /// Delivery work in progress (``beginDeliveryWork()``): what it set aside, put back by
    /// ``endDeliveryWork(_:)`` and ``resumeQueue(after:)``.
    struct DeliveryWork {
        fileprivate let deliveryBatchDepth: Int
        /// The writes queued before the work began, still to be applied (by the delivery whose
        /// round the work runs in), and the rounds that delivery counted.
        fileprivate var setAside: [_DeferredWrite] = []
        fileprivate let setAsideHead: Int
        fileprivate let rounds: Int
    }

    /// Delivery work begins outside a delivery (a reaction's first run, an event's handlers,
    /// possibly inside a batch or a delivery's round): returns what ``endDeliveryWork(_:)`` and
    /// ``resumeQueue(after:)`` take back, or `nil` when the thread delivers already (the work
    /// is part of that delivery).
    ///
    /// The writes queued before it are set aside: the work's own writes are delivered, or
    /// applied in the enclosing batch, alone, and the writes queued before them keep their
    /// rounds after.
    mutating func beginDeliveryWork() -> DeliveryWork? {
        guard !isDelivering else { return nil }
        isDelivering = true
        var work = DeliveryWork(deliveryBatchDepth: deliveryBatchDepth, setAsideHead: queuedHead, rounds: rounds)
        swap(&work.setAside, &queued)
        queuedHead = 0
        rounds = 0
        deliveryBatchDepth = batchDepth
        return work
    }

    /// What to do after delivery work.
    enum AfterDeliveryWork {
        /// Deliver what the work queued (outside any batch).
        case deliver
        /// Apply the writes it queued now, as part of the enclosing batch.
        case applyQueuedInBatch
    }

    /// Delivery work ends (`work`: what ``beginDeliveryWork()`` returned). Once the caller has
    /// done what this returns, ``resumeQueue(after:)``.
    mutating func endDeliveryWork(_ work: borrowing DeliveryWork) -> AfterDeliveryWork {
        deliveryBatchDepth = work.deliveryBatchDepth
        isDelivering = false
        return batchDepth == 0 ? .deliver : .applyQueuedInBatch
    }

    /// After delivery work's writes were delivered or applied: the writes queued before it are
    /// queued again, as they were.
    mutating func resumeQueue(after work: consuming DeliveryWork) {
        queued = work.setAside
        queuedHead = work.setAsideHead
        rounds = work.rounds
    }

    /// The thread runs the reactions its own commit queued, before it delivers anything else.
    mutating func beginRunningJobs() {
        isDelivering = true
    }

    /// The reactions run by ``beginRunningJobs()`` are done.
    mutating func endRunningJobs() {
        isDelivering = false
    }

    /// A delivery begins: rounds of queued jobs and queued writes, until none is left. (A
    /// delivery begun inside another's round, by a write made while that round commits, goes
    /// on with its queue and its count of rounds.)
    mutating func beginDelivery() {
        isDelivering = true
    }

    /// The next round of a delivery.
    enum Round {
        /// Apply this write (``beginRound()``, then ``endRound()``), then run what it queued.
        case apply(_DeferredWrite)
        /// The delivery exceeded `_Graph.maximumRounds` rounds that write: stop the program,
        /// naming this write.
        case runaway(_DeferredWrite)
        /// Nothing is queued: the delivery is done (``endDelivery()``).
        case done
    }

    /// Takes the next queued write of a delivery, once the jobs of the previous round ran.
    mutating func nextRound() -> Round {
        guard hasQueuedWrites else { return .done }
        let write = queued[queuedHead]
        queuedHead += 1
        if !write.writesNothing { rounds += 1 }
        if rounds > _Graph.maximumRounds {
            isDelivering = false
            return .runaway(write)
        }
        return .apply(write)
    }

    /// A round's write is applied next: its writes are staged, like a batch's.
    mutating func beginRound() {
        isDelivering = false
        batchDepth += 1
    }

    /// A round's write was applied: commit what it staged (the caller does), then run the
    /// jobs it queued (``resumeDelivery()``).
    mutating func endRound() {
        batchDepth -= 1
    }

    /// After a round's commit, the delivery goes on.
    mutating func resumeDelivery() {
        isDelivering = true
    }

    /// A delivery ends: nothing is queued any more.
    mutating func endDelivery() {
        // Most deliveries queued no write: emptying an empty queue still costs a buffer swap.
        if !queued.isEmpty { emptyQueue() }
        rounds = 0
        isDelivering = false
    }

    /// Inside a batch, after delivery work: the next write it queued, to apply now as part of
    /// the batch, or `nil` once there is none (the queue is emptied then).
    mutating func nextQueuedInBatch() -> _DeferredWrite? {
        guard hasQueuedWrites else {
            emptyQueue()
            return nil
        }
        queuedHead += 1
        return queued[queuedHead - 1]
    }

    /// Every queued write was taken: the queue is emptied, its storage kept.
    private mutating func emptyQueue() {
        queued.removeAll(keepingCapacity: true)
        queuedHead = 0
    }
}

/// The jobs a thread's writes queued: reactions to run or check, Observation changes to report.
/// Propagation appends them (lock held); the job loop (`_Graph.runQueuedJobsAndUnlock`) takes
/// them in order, jobs queued meanwhile included, then releases what they hold and empties the
/// queue.
///
/// One per thread (`_ThreadContext.jobs`), beside its `_WritePipeline`; non-copyable, as the
/// buffer it holds.
struct _JobQueue: ~Copyable {
    /// The jobs, in the order they were queued (run and not yet run).
    var jobs = _Buffer<_Job>()
    /// The next job to run.
    private var head = 0

    /// Whether a job waits to run.
    var hasJobs: Bool { head < jobs.count }

    /// Queues `job`.
    @inline(__always)
    mutating func append(_ job: _Job) {
        jobs.append(job)
    }

    /// The index in ``jobs`` of the next job to run, if one is queued.
    mutating func next() -> Int? {
        guard hasJobs else { return nil }
        head += 1
        return head - 1
    }

    /// Every queued job ran (the caller released what they held): the queue is emptied.
    mutating func end() {
        jobs.removeAllKeepingCapacity()
        head = 0
    }

    /// Takes every job out, leaving the queue empty: a change reported from outside a delivery
    /// (no job is being run) sets the jobs it queues apart (see `_ExternalSource`).
    mutating func take() -> _Buffer<_Job> {
        jobs.take()
    }

    /// Puts back jobs `take()` took out.
    mutating func restore(_ taken: consuming _Buffer<_Job>) {
        jobs = taken
    }
}
