@testable import Ripple

/// Starts, inside a batch, a reaction that records what `read` returns: after the batch's
/// writes in `before`, and before those in `after`. Returns what it recorded and its
/// subscription, once the batch is applied: the first entry is what the reaction saw in the
/// batch's view, the others what the apply and later writes ran it with.
func reactionStartedInABatch<Value: Sendable>(
    before: () -> Void,
    reading read: @escaping @Sendable () -> Value,
    after: () -> Void = {}
) -> (seen: Recorder<Value>, reaction: Subscription) {
    let seen = Recorder<Value>()
    var reaction: Subscription?
    batch {
        before()
        reaction = observe { seen.append(read()) }
        after()
    }
    return (seen, reaction.unsafelyUnwrapped)
}
