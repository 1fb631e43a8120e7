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
    let start: ContinuousClock.Instant?
    /// The store was released: the mutation runs on its last state, and what it leaves is
    /// dropped (a binding or a dispatcher that outlives its store).
    let isDropped: Bool
    /// Made by a thread that does not own the gate (see `_StoreCore.handed`).
    var isHandedOver = false
}
