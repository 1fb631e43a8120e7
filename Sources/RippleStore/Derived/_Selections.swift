import Ripple

/// The closure selectors of one store (``Store/select(file:line:_:)``,
/// ``MainActorStore/select(file:line:_:)``), run on every commit that the store publishes, in
/// the batch that publishes it: each selector's node is written only when its result changed.
///
/// A selector is not a graph node reading the whole state (as a key-path slice is), so a
/// commit does not mark, check and re-evaluate each one through the graph: it calls each
/// selector once and compares its result with the last, as a Verge-style store does, and only
/// the nodes whose value changed are written, with the state, in one batch.
///
/// A store's commits are published one at a time (a ``Store``'s by the thread that owns its
/// gate, see ``_StoreCore``; a ``MainActorStore``'s on the main actor), so a selection's last
/// result is touched by one publisher at a time; the list itself is guarded by `lock`.
@usableFromInline
final class _Selections<State>: @unchecked Sendable {
    private let lock = _Lock()
    // Guarded by `lock`:
    /// The selections. A released one is replaced by the last one (O(1)), so the order is not
    /// the order they were made in; each knows its index.
    private var entries: [_Selection<State>] = []
    /// The newest version whose publish took the list: a selection made from an older state
    /// may have been missed by that publish, and is made again from a newer one; a publish of
    /// an older version (a commit applied late, which the store does not publish) is skipped.
    private var takenThrough: UInt64 = 0
    /// The newest version a selection in the list was made from: a publish of a newer one
    /// runs them all without looking at each one's version.
    private var newestStart: UInt64 = 0

    init() {}

    /// Adds the selection `make` returns for the state it is given, with the version of that
    /// state. `make` runs with no lock held, possibly more than once: when a commit was
    /// published while it ran, it runs again on a newer state, so that no publish misses the
    /// selection.
    ///
    /// - Parameter snapshot: The state a selection made now starts from, and its version (the
    ///   published state on the thread that owns the store's gate, else the latest commit).
    /// - Returns: What `make` made, and the lease that keeps the selection: its derived value
    ///   holds it, and releasing it releases the selection.
    @usableFromInline
    func add<Made>(
        startingFrom snapshot: () -> (state: State, version: UInt64),
        _ make: (State, UInt64) -> (selection: _Selection<State>, made: Made)
    ) -> (made: Made, lease: _SelectionLease) {
        while true {
            let (state, version) = snapshot()
            let (selection, made) = make(state, version)
            let added = lock.withLock { () -> Bool in
                guard takenThrough <= version else { return false }
                selection.index = entries.count
                entries.append(selection)
                if version > newestStart { newestStart = version }
                return true
            }
            if added {
                // Strong references: neither holds the lease, and a weak reference would move
                // the selection's reference counts to a side table, slower on every publish.
                return (made, _SelectionLease { [self] in release(selection) })
            }
        }
    }

    /// Removes `selection`, whose derived value was released. The caller lets go of it after
    /// this returns, with the lock released: its selector's context may hold user objects,
    /// whose deinitializers must not run under the lock. A publish that took the list before
    /// may still run it once.
    func release(_ selection: _Selection<State>) {
        lock.withLock {
            let index = selection.index
            guard index >= 0, index < entries.count, entries[index] === selection else { return }
            let last = entries.removeLast()
            if index < entries.count {
                entries[index] = last
                last.index = index
            }
            selection.index = -1
        }
    }

    /// A commit is being published: runs every selection on `state`, the state of `version`,
    /// and writes the nodes whose result changed. Run in the batch that publishes the commit.
    func publish(_ state: State, version: UInt64) {
        var checksStarts = false
        let current = lock.withLock { () -> [_Selection<State>] in
            guard version > takenThrough else { return [] }
            takenThrough = version
            checksStarts = version <= newestStart
            return entries
        }
        // `current` holds every selection: each is used without being retained (two atomic
        // reference-count operations per selector per commit, a third of its cost).
        current.withUnsafeBufferPointer { selections in
            for index in selections.indices {
                Unmanaged.passUnretained(selections[index])._withUnsafeGuaranteedRef { selection in
                    // Made from this version or a newer one: it has this state's result.
                    if checksStarts, version <= selection.startVersion { return }
                    selection.update(state)
                }
            }
        }
    }
}

/// One closure selector: its update (the selector, compiled for its value type where
/// ``Store/select(file:line:_:)`` was called, the comparison with its last result, the write of its
/// node) and the version of the state it was made from.
@usableFromInline
final class _Selection<State>: @unchecked Sendable {
    @usableFromInline let update: (State) -> Void
    /// The version of the state it was made from.
    let startVersion: UInt64
    /// Its index in the list, `-1` once released (guarded by the list's lock).
    var index = -1

    @usableFromInline
    init(version: UInt64, update: @escaping (State) -> Void) {
        startVersion = version
        self.update = update
    }
}

/// Held by a closure selector's derived value (and by nothing the store keeps): when it goes,
/// the selection is released, and with it the selector and what it captured, at the store's
/// next publish.
@usableFromInline
final class _SelectionLease: Sendable {
    private let release: @Sendable () -> Void

    init(_ release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit { release() }
}
