/// A commit between the moment it took its store's gate and its mutation's end: a store's
/// commit in two halves, for a compound assignment (`binding.value += 1`), whose `_modify`
/// accessor yields once and cannot run inside a closure.
///
/// Not generic: the store's unspecialized code would look up a generic struct's metadata each
/// time it copies one. The store reads the snapshot back as its own (`_StoreCore.base(of:)`).
struct _OpenCommit {
    let thread: UInt
    let base: _AnySnapshot
    var transaction: Transaction
    /// When the commit began, for the store's logger (`nil` without one). A reference, not a
    /// `ContinuousClock.Instant?`: that type's layout is resilient, so copying this struct went
    /// through value witnesses and generic metadata, about 800 of a commit's 3 770 instructions.
    let start: _CommitStart?
    /// The store was released: the mutation runs on its last state, and what it leaves is
    /// dropped (a binding or a dispatcher that outlives its store).
    let isDropped: Bool
    /// Made by a thread that does not own the gate (see `_StoreCore.handed`).
    var isHandedOver = false

    /// The transaction, moved out for the commit's snapshot; an empty one is left in its
    /// place (nothing reads it after).
    mutating func takeTransaction() -> Transaction {
        var taken = Transaction._moved
        swap(&taken, &transaction)
        return taken
    }
}

/// When a commit began (`_OpenCommit.start`), kept only for a store with a logger.
final class _CommitStart: Sendable {
    let instant = ContinuousClock.now
}
