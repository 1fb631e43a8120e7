
/// A node that reads others and is live until disposed: a reaction or an Observation watcher.
class _SubscriberNode: _Node, @unchecked Sendable {
    /// Cancelled and unlinked from its sources.
    @exclusivity(unchecked) final var isDisposed = false
}
