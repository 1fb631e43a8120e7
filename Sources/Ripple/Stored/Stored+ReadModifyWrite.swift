import _RippleRef

// Read-modify-writes that no other writer can overtake.
//
// Two mechanisms, both keyed to the first stored value a read-modify-write reads (its
// *subject*), so that they also work through getters and setters Ripple does not see (a
// binding to a model property, a `didSet`):
//
// - Compare and set, for transforms given as closures (`Stored.update`, `ValueBinding.update`):
//   the subject's write count is noted when it is read; the write commits only if the count
//   has not moved, otherwise the whole read-transform-write runs again. No lock is held while
//   the transform (user code) runs.
// - Exclusive access, for compound assignments (`count.value += 1`), whose `_modify` accessor
//   yields once and so cannot be retried: the subject's other writers wait until the
//   assignment ends. Readers never wait, and the graph's lock is not held while the
//   assignment's own expression runs.
//
// A region is open on the thread for the duration of either; the graph counts open regions so
// that a read made outside any region costs one load.
//
// Inside a batch, whose writes are applied only when it ends, both take exclusive access, and
// keep it until the batch is applied (a reservation): another thread's write of the value
// waits for the batch, so the batch's read-modify-write cannot be overtaken either. Two threads
// that would wait for each other that way are stopped with a message instead of hanging.

/// The read-modify-write region open on a thread.
struct _ReadModifyWriteRegion {
    enum Mode: UInt8 {
        /// No region: reads are not recorded.
        case none
        /// The subject's write must find its write count unchanged.
        case compareAndSet
        /// The subject's other writers wait until the region ends.
        case exclusive
    }

    var mode = Mode.none
    /// The first stored value read in the region, retained.
    var subject: (any _ReadModifyWriteSubject)?
    /// The subject's write count when it was read.
    var stamp = 0
    /// Set while the region's write runs: the subject's next write commits only if `stamp` holds.
    var isWriting = false
    /// Set when that write found `stamp` overtaken, and so wrote nothing.
    var wasOvertaken = false
    /// Whether the subject's exclusive access belongs to the enclosing batch (released when
    /// the batch is applied) rather than to this region.
    var isReservedByBatch = false
}

/// A stored value, as a read-modify-write region sees it (lock held for every call).
protocol _ReadModifyWriteSubject: AnyObject {
    /// Ends one exclusive access by the calling thread.
    func _endExclusive(_ held: borrowing _HeldLock)
    /// The thread (its context) with exclusive access, if any.
    func _exclusiveOwner(_ held: borrowing _HeldLock) -> _Ref<_ThreadContext>?
    /// Waits (lock held once) until no other thread has exclusive access.
    func _waitForExclusiveAccess(_ context: _ThreadContext, _ held: borrowing _HeldLock)
    /// The name used in diagnostics.
    var debugLabel: String { get }
}

/// A compound assignment's exclusive access, from ``_beginExclusiveAccess()`` to
/// ``_endExclusiveAccess(_:)``.
package struct _ExclusiveAccess {
    fileprivate let enclosing: _ReadModifyWriteRegion
}

/// Opens an exclusive read-modify-write region on this thread: the first stored value read in
/// it is the subject, whose other writers wait until ``_endExclusiveAccess(_:)``. Used by
/// `_modify` accessors, which cannot retry.
package func _beginExclusiveAccess() -> _ExclusiveAccess {
    let context = _ThreadContext.current
    let enclosing = context.readModifyWrite
    context.readModifyWrite = _ReadModifyWriteRegion(mode: .exclusive)
    _graph.withLock { _graph.readModifyWriteRegions += 1 }
    return _ExclusiveAccess(enclosing: enclosing)
}

/// Closes the region ``_beginExclusiveAccess()`` opened, and lets the subject's other writers in.
package func _endExclusiveAccess(_ access: _ExclusiveAccess) {
    let context = _ThreadContext.current
    let region = context.readModifyWrite
    context.readModifyWrite = access.enclosing
    _graph.withLock { held in
        _graph.readModifyWriteRegions -= 1
        if region.mode == .exclusive, !region.isReservedByBatch, let subject = region.subject {
            subject._endExclusive(held)
        }
    }
    // `region` holds the subject: released here, with the lock released.
    withExtendedLifetime(region) {}
}

/// Writes `value` with `write`, a binding's write of a whole value through a setter Ripple does
/// not see: now, or, while reactions are being delivered on this thread, after the current
/// round, as ``_readModifyWrite(read:transform:write:)`` is (so that the setter and what it
/// runs, a `didSet`, run after the round, reading the values it wrote).
package func _writeThroughSetter<Value>(_ value: Value, _ write: @escaping (Value) -> Void) {
    let context = _ThreadContext.current
    if context.writes.route == .queue {
        _graph.queueWrite(context) { write(value) }
        return
    }
    write(value)
}

/// Reads with `read`, changes the result with `transform` and writes it with `write`, so that
/// no other write to the first stored value `read` reads lands in between: if one does, the
/// write is dropped and all three run again on the newer value.
///
/// While reactions are being delivered on this thread, the whole read-modify-write is queued
/// after the current round, like any write. `transform` runs with no lock held, and may run
/// more than once. When `read` reads no stored value, this is a plain read then write.
package func _readModifyWrite<Value>(
    read: @escaping () -> Value,
    transform: @escaping (inout Value) -> Void,
    write: @escaping (Value) -> Void
) {
    let context = _ThreadContext.current
    if context.writes.route == .queue {
        _graph.queueWrite(context) { _readModifyWrite(read: read, transform: transform, write: write) }
        return
    }
    let enclosing = context.readModifyWrite
    _graph.withLock { _graph.readModifyWriteRegions += 1 }
    defer {
        context.readModifyWrite = enclosing
        _graph.withLock { _graph.readModifyWriteRegions -= 1 }
    }
    if context.writes.route == .stage {
        // Inside a batch the write is applied only when the batch ends: the subject is held
        // until then instead (a reservation), so one pass is enough.
        context.readModifyWrite = _ReadModifyWriteRegion(mode: .exclusive)
        var value = read()
        context.readModifyWrite.mode = .none
        transform(&value)
        write(value)
        return
    }
    while true {
        context.readModifyWrite = _ReadModifyWriteRegion(mode: .compareAndSet)
        var value = read()
        // What the transform reads is not the subject.
        let subject = context.readModifyWrite.subject
        context.readModifyWrite.mode = .none
        transform(&value)
        context.readModifyWrite.mode = .compareAndSet
        context.readModifyWrite.isWriting = subject != nil
        write(value)
        if !context.readModifyWrite.wasOvertaken { return }
    }
}

/// Reads with `read`, changes the result with `transform` and writes it with `write`, in one
/// pass that no other write to the first stored value `read` reads can overtake: that value's
/// other writers wait from the read until the write (its readers don't). For a transform that
/// must not run twice, because it tells others what it is about to write (an observable
/// array's before-change handlers).
///
/// While reactions are being delivered on this thread, the whole read-modify-write is queued
/// after the current round, like any write; inside a batch, the value is held until the batch
/// is applied (see `_readModifyWrite`). `transform` runs with no lock held, once. A thread that
/// would wait for another that waits for it is stopped with a message instead of hanging.
package func _exclusiveReadModifyWrite<Value>(
    read: @escaping () -> Value,
    transform: @escaping (inout Value) -> Void,
    write: @escaping (Value) -> Void
) {
    let context = _ThreadContext.current
    if context.writes.route == .queue {
        _graph.queueWrite(context) { _exclusiveReadModifyWrite(read: read, transform: transform, write: write) }
        return
    }
    let enclosing = context.readModifyWrite
    _graph.withLock { _graph.readModifyWriteRegions += 1 }
    context.readModifyWrite = _ReadModifyWriteRegion(mode: .exclusive)
    var value = read()
    // What the transform reads is not the subject (it is kept, exclusive, until the end).
    context.readModifyWrite.mode = .none
    transform(&value)
    write(value)
    let region = context.readModifyWrite
    context.readModifyWrite = enclosing
    _graph.withLock { held in
        _graph.readModifyWriteRegions -= 1
        if !region.isReservedByBatch, let subject = region.subject { subject._endExclusive(held) }
    }
    // `region` holds the subject: released here, with the lock released.
    withExtendedLifetime(region) {}
}

extension Stored: _ReadModifyWriteSubject {
    /// A read inside a read-modify-write region: the region's first read of a
    /// stored value outside any derivation makes it the subject; an exclusive region waits for
    /// the subject's other writers' exclusive accesses first.
    @usableFromInline
    func _noteReadInRegion(_ held: borrowing _HeldLock) {
        graphRef.with { graph in
            let context = _ThreadContext.current
            guard context.readModifyWrite.mode != .none, context.readModifyWrite.subject == nil,
                !graph.isDeriving(on: context, held)
            else { return }
            if context.readModifyWrite.mode == .exclusive {
                _waitForExclusiveAccess(context, held)
                if _exclusiveOwner(held) == nil {
                    _setExclusiveOwner(_Ref(context), held)
                    graph.state(held).exclusiveOwners += 1
                }
                held[exclusiveDepth: extras(held)] += 1
                // Inside a batch (not one queued by a reaction), held until it is applied.
                if context.writes.route == .stage {
                    context.readModifyWrite.isReservedByBatch = true
                    context.reservations.append(self)
                }
            }
            context.readModifyWrite.subject = self
            context.readModifyWrite.stamp = held[writes: self]
        }
    }

    /// Lets a write in (`held`): waits while another thread has exclusive access, and returns
    /// the acquisition; refuses, releasing it and returning `nil`, the write of a
    /// compare-and-set region whose subject was written since it was read.
    @usableFromInline
    func _admitWrite(_ graph: _Graph, _ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock)
        -> _HeldLock?
    {
        let context = context.object
        _waitForExclusiveAccess(context, held)
        guard context.readModifyWrite.isWriting, context.readModifyWrite.subject === self else { return held }
        context.readModifyWrite.isWriting = false
        guard held[writes: self] == context.readModifyWrite.stamp else {
            context.readModifyWrite.wasOvertaken = true
            held.release(graph)
            return nil
        }
        return held
    }

    /// Sets the thread with exclusive access to this value (`nil`: none).
    func _setExclusiveOwner(_ owner: _Ref<_ThreadContext>?, _ held: borrowing _HeldLock) {
        if owner == nil, _extras == nil { return }
        extrasRef(held).with { held[exclusiveOwner: $0] = owner }
    }

    /// Waits (lock held once) until no other thread has exclusive access to this value.
    /// Stops the program, rather than hang, when the owner waits (directly or through others)
    /// for a value this thread holds.
    func _waitForExclusiveAccess(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let me = _Ref(context)
        while let owner = _exclusiveOwner(held), owner != me {
            graphRef.with { graph in
                if !graph.lock.isHeldOnce {
                    graph.unlock()
                    _rippleFailure(
                        "\(debugLabel) was written or modified from inside a derivation or an equality while another thread was in the middle of a read-modify-write of it. Derivations and equalities must not write."
                    )
                }
                failIfWaitingCloses(on: owner, me, graph, held)
                held[waitingFor: context] = self
                graph.waitForBroadcast(context, held)
                held[waitingFor: context] = nil
            }
        }
    }

    /// Follows who waits for whom from `owner`; stops the program if it leads back to `me`.
    private func failIfWaitingCloses(
        on owner: _Ref<_ThreadContext>, _ me: _Ref<_ThreadContext>, _ graph: _Graph, _ held: borrowing _HeldLock
    ) {
        var chain = [debugLabel]
        var next = owner
        // Every context on the chain belongs to a thread blocked in this function, so alive.
        while let waited = held[waitingFor: next.object],
            let nextOwner = waited._exclusiveOwner(held)
        {
            chain.append(waited.debugLabel)
            if nextOwner == me {
                graph.unlock()
                _rippleFailure(
                    "deadlock between read-modify-writes: this thread waits to write \(chain[0]), which another thread holds while it waits for \(chain.dropFirst().joined(separator: ", then ")), which this thread holds. Inside a batch, a read-modify-write (update, +=) holds its value until the batch ends; batches on several threads must read-modify-write shared values in the same order."
                )
            }
            if chain.count > 64 { return }
            next = nextOwner
        }
    }

    func _endExclusive(_ held: borrowing _HeldLock) {
        held[exclusiveDepth: extras(held)] -= 1
        if held[exclusiveDepth: extras(held)] == 0 {
            _setExclusiveOwner(nil, held)
            graphRef.with { graph in
                graph.state(held).exclusiveOwners -= 1
                graph.lock.broadcast()
            }
        }
    }
}
