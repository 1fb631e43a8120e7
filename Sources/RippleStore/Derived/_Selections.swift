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
    /// `entries.count`, read by ``isEmpty`` on every commit without looking up the metadata of
    /// the generic array (about 1 200 instructions in this unspecialized code).
    private var count = 0
    /// The newest version a selection in the list was made from: a publish of a newer one
    /// runs them all without looking at each one's version.
    private var newestStart: UInt64 = 0

    init() {}

    /// Whether no selection is listed (every one made was released).
    var isEmpty: Bool {
        lock.lock()
        let isEmpty = count == 0
        lock.unlock()
        return isEmpty
    }

    /// Adds `selection`, made from the state of `version`.
    ///
    /// Every publish from now on runs it, except those of `version` or older: its result is
    /// that state's already. The caller makes it so that no newer publish has taken the list
    /// without it: a ``Store`` makes it while holding its gate (every commit up to the latest
    /// has been published by then, or is queued on the gate's owner, and none can be made
    /// until the gate is released), a ``MainActorStore`` on the main actor, where it
    /// publishes.
    ///
    /// - Returns: The lease that keeps the selection: its derived value holds it, and
    ///   releasing it releases the selection.
    @usableFromInline
    func add(_ selection: _Selection<State>, madeAt version: UInt64) -> _SelectionLease {
        lock.withLock {
            selection.index = entries.count
            entries.append(selection)
            count = entries.count
            if version > newestStart { newestStart = version }
        }
        // Strong references: neither holds the lease, and a weak reference would move the
        // selection's reference counts to a side table, slower on every publish.
        return _SelectionLease { [self] in release(selection) }
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
            count = entries.count
            if index < entries.count {
                entries[index] = last
                last.index = index
            }
            selection.index = -1
        }
    }

    /// A commit is being published: runs every selection on `state`, the state of `version`,
    /// and writes the nodes whose result changed. Run in the batch that publishes the commit.
    ///
    /// - Parameter previousVersion: The version of the state the publishing thread reads as
    ///   published. Below `version - 1`, an earlier publish is not applied yet (its batch, on
    ///   another thread, has not ended): the results it compared with may not be in the nodes,
    ///   so every selection writes its result, stamped with `version` (a node drops a write of
    ///   an older version, and so that batch's write when it is applied).
    func publish(_ state: State, version: UInt64, after previousVersion: UInt64) {
        var checksStarts = false
        let writesAll = previousVersion &+ 1 != version
        let current = lock.withLock { () -> [_Selection<State>] in
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
                    if selection.update(state) || writesAll { selection.write(version) }
                }
            }
        }
    }
}

/// One closure selector: its update (the selector and the comparison with its last result) and
/// the write of its node, both compiled for its value type where ``Store/select(file:line:_:)``
/// was called, and the version of the state it was made from.
@usableFromInline
final class _Selection<State>: @unchecked Sendable {
    /// Runs the selector on a state and keeps its result: returns whether it changed.
    @usableFromInline let update: (State) -> Bool
    /// Writes the last result to the selection's node, stamped with a state version. Apart
    /// from `update`, which every commit calls for every selector: a closure called with one
    /// argument costs less.
    @usableFromInline let write: (UInt64) -> Void
    /// The version of the state it was made from.
    let startVersion: UInt64
    /// Its index in the list, `-1` once released (guarded by the list's lock).
    var index = -1

    @usableFromInline
    init(version: UInt64, update: @escaping (State) -> Bool, write: @escaping (UInt64) -> Void) {
        startVersion = version
        self.update = update
        self.write = write
    }
}

extension _Selection {
    /// A selection that runs `select` on each published state and compares its result with
    /// the last (`first`, its result on the state of `version`, to begin with): when it
    /// changed, `write` gets the new result and the version of its state. Both stores' closure
    /// selectors, compiled for the value type where they are made.
    @inlinable
    static func comparing<Value: Equatable>(
        from first: Value,
        at version: UInt64,
        _ select: @escaping (State) -> Value,
        write: @escaping (Value, UInt64) -> Void
    ) -> _Selection {
        let last = _SelectedResult(first)
        return _Selection(
            version: version,
            update: { state in
                let value = select(state)
                if value == last.value { return false }
                last.value = value
                return true
            },
            write: { version in write(last.value, version) })
    }
}

/// A closure selector's last result, compared with each new one (by the store's publishers, one
/// at a time; see ``_Selections``).
@usableFromInline
final class _SelectedResult<Value>: @unchecked Sendable {
    /// Unchecked exclusivity: read and written by one publisher at a time, never overlapping.
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// Held by a closure selector's derived value (and by nothing the store keeps): when it goes,
/// the selection is released, and with it the selector and what it captured (at once, or when
/// a publish running meanwhile ends).
@usableFromInline
final class _SelectionLease: Sendable {
    private let release: @Sendable () -> Void

    init(_ release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit { release() }
}
