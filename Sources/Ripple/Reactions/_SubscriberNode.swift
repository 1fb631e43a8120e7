/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _DerivedNode, @unchecked Sendable {
    /// Cancelled and unlinked from its sources.
    @exclusivity(unchecked) final var isDisposed = false
    /// Jobs for this node in delivery queues, not yet done. Queued jobs do not retain a
    /// subscriber: while it is live its sources hold it (see `_Job`).
    @exclusivity(unchecked) final var queuedJobs = 0
    /// Disposed while queued: the node holds a reference to itself until its last job is done.
    @exclusivity(unchecked) private final var isHeldForJobs = false

    /// Marks the node disposed (lock held). If jobs for it are still queued, it keeps itself
    /// alive until they are done, since they do not retain it.
    final func markDisposed() {
        isDisposed = true
        if queuedJobs > 0, !isHeldForJobs {
            isHeldForJobs = true
            _ = Unmanaged.passUnretained(self).retain()
        }
    }

    /// Marks one queued job done (lock held). Returns true when the job must drop the
    /// reference the node held for its queued jobs (once the lock is released).
    final func finishQueuedJob() -> Bool {
        queuedJobs &-= 1
        guard queuedJobs == 0, isHeldForJobs else { return false }
        isHeldForJobs = false
        return true
    }
}
