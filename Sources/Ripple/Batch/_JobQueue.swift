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
        guard head < jobs.count else { return nil }
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
