import _RippleRef

// Before-change handlers (`Stored.willChange`).
//
// Zero cost for a value without them: the handlers live in the node's lazily created extras,
// and a bit of the node's `rareFlags` says they exist. The write paths test that bit under the
// lock they take anyway, after the equality check (an unbatched write, in `_write`) or before
// the bookkeeping (a batch's write, in `_beginStaging`), and take the slow paths below only
// when it is set. A batch's first write, which is kept without the lock (`_SoleWrite`), reads
// a process-wide count of the values with handlers instead, and is staged while it is not zero.
//
// No handler runs with the lock held: the slow paths take the value for the writing thread
// (the exclusive access of a read-modify-write, so other threads' writes of it wait and the
// handlers are told exactly the change that happens), release the lock, call the handlers,
// take the lock again and go on with the write.

/// A before-change handler of a ``Stored``, and whether it was cancelled (lock held to touch
/// `isCancelled`).
final class _WillChangeHandler<Value>: @unchecked Sendable {
    // @unchecked: `isCancelled` is guarded by the graph's lock; `owner` is a weak reference,
    // which the runtime makes safe to load from any thread.
    let call: @Sendable (Value, Value) -> Void
    fileprivate var isCancelled = false
    /// The value it belongs to: weak, so that the subscription does not keep it alive.
    weak var owner: Stored<Value>?

    init(_ call: @escaping @Sendable (Value, Value) -> Void, owner: Stored<Value>) {
        self.call = call
        self.owner = owner
    }

    /// Removes the handler from its value, if the value is still alive.
    func cancel() {
        owner?._removeWillChangeHandler(self)
    }
}

extension Stored {
    /// Calls `handler` with the current and the new value before each change of the value:
    /// on the writing thread, while every reader still sees the old value (Fisticuffs'
    /// `.beforeChange` subscriptions).
    ///
    /// ```swift
    /// let name = Stored("Ada")
    /// let log = name.willChange { old, new in print("\(old) → \(new)") }
    /// name.value = "Grace"   // prints "Ada → Grace", then reactions see "Grace"
    /// name.value = "Grace"   // equal: prints nothing
    /// ```
    ///
    /// A change is a write the value's own equality does not find equal (for a type that is
    /// not `Equatable` and no `equals:`, every write): a write of an equal value calls no
    /// handler. Writes through ``value``, ``update(_:)`` and compound assignments
    /// (`count.value += 1`) all call the handlers; ``trigger()``, which reports a change
    /// already made in place, does not.
    ///
    /// When the handlers run, relative to everything else:
    /// - An unbatched write calls them after its equality check and before the value changes:
    ///   before any `Computed` is marked, any reaction runs or Observation is told. They run in
    ///   the order they were added, with no lock held.
    /// - Inside a ``batch(_:)``, each write that changes the batch's view of the value (the
    ///   value the batch last wrote, else the committed one) calls them when it is made, told
    ///   that view and the new value; the batch is applied when it ends, as always. A batch
    ///   that writes `1` then `0` over `0` calls them twice and changes nothing.
    /// - A write made inside a reaction is queued (as every such write is) and calls them when
    ///   it is applied, after the reactions of the current round.
    ///
    /// What a handler is told is what happens: from the call to the write (to the end of the
    /// batch, inside one), the value is held for the writing thread, and other threads' writes
    /// of it wait, as they wait for a read-modify-write (readers never wait). A write
    /// staged by a batch before the first handler was added is not told.
    ///
    /// A handler may read anything and write other values: an unbatched write's handler
    /// writes them before the change, and their reactions run then; inside a batch its writes
    /// join the batch. A handler must not write the value it is told about, directly or
    /// through reactions its writes run: that would change the value before the change it was
    /// told about. It stops the program with a message naming the value. As with
    /// read-modify-writes in batches, two threads that each hold a value with handlers and
    /// write the other's are stopped with a message rather than left waiting.
    ///
    /// Added inside a reaction's body or a ``ReactionScope``'s `run { }`, the handler belongs to
    /// that owner, as a reaction created there does: it is removed before the reaction's next
    /// run, or when the scope is cancelled. Add it inside ``withoutOwner(_:)`` to keep it beyond.
    ///
    /// - Parameter handler: Called with the old and the new value, untracked.
    /// - Returns: A subscription that removes the handler when cancelled or released. Once
    ///   ``Subscription/cancel()`` returns, the handler is not called again (a call another
    ///   thread had already begun, even one not yet inside the handler, goes on to its end).
    ///   The subscription does not keep the value alive.
    /// - Complexity: A value's writes cost nothing more until it has a handler; then each change
    ///   costs one lock acquisition per handler, plus the handlers.
    public func willChange(_ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void) -> Subscription {
        let entry = _WillChangeHandler(handler, owner: self)
        let subscription = Subscription { entry.cancel() }
        // An owner already cancelled: the handler is never added.
        guard _adoptByCurrentOwner(subscription) else { return subscription }
        graphRef.with { graph in
            graph.withLock { held in
                held[willChangeHandlers: extras(held)].append(entry)
                if !_hasWillChangeHandlers {
                    _hasWillChangeHandlers = true
                    graph.countWillChangeNodes(by: 1)
                }
            }
        }
        return subscription
    }

    /// Removes a cancelled handler (lock taken here); the last one leaves the value plain.
    func _removeWillChangeHandler(_ entry: _WillChangeHandler<Value>) {
        graphRef.with { graph in
            graph.withLock { held in
                guard !entry.isCancelled else { return }
                entry.isCancelled = true
                let extras = self.extras(held)
                held[willChangeHandlers: extras].removeAll { $0 === entry }
                if held[willChangeHandlers: extras].isEmpty, _hasWillChangeHandlers {
                    _hasWillChangeHandlers = false
                    graph.countWillChangeNodes(by: -1)
                }
            }
        }
    }

    /// Called by `deinit`: a value freed with handlers no longer counts among the values that
    /// have some.
    func _forgetWillChangeHandlers() {
        if _hasWillChangeHandlers {
            graphRef.with { $0.countWillChangeNodes(by: -1) }
        }
    }

    /// An unbatched write that changes a value with handlers (the caller's acquisition consumed,
    /// `held`, with the equality checked): takes the value for this thread, releases the lock,
    /// calls the handlers, takes the lock back and lets the value go; returns that new
    /// acquisition, for the write to commit under it. Other threads' writes of the value wait
    /// meanwhile (in `_lockForWrite`), so the value is still the one the handlers were told
    /// about.
    @usableFromInline @inline(never)
    func _callWillChangeHandlers(_ newValue: Value, _ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock)
        -> _HeldLock
    {
        let graph = graphRef.object
        graph.state(held).comparingRef = nil
        let me = context
        failIfCallingWillChangeHandlers(graph, me, held)
        holdForWillChange(graph, me, held)
        let handlers = held[willChangeHandlers: extras(held)]
        held[willChangeCaller: extras(held)] = me
        let old = _value
        // Not counted while the handlers run: a compare-and-set (`update`) that reads the
        // value meanwhile notes the count before this write, and so finds itself
        // overtaken when this write lands (counted, it would commit over it).
        held[writes: self] &-= 1
        held.release(graph)
        runWillChangeHandlers(handlers, old, newValue, graph)
        held = graph.takeLock()
        held[writes: self] &+= 1
        held[willChangeCaller: extras(held)] = nil
        _endExclusive(held)
        return held
    }

    /// A batch's write of a value with handlers (the caller's acquisition consumed, `held`;
    /// called by `_beginStaging`, which found the handlers): holds the value for the batch
    /// until it is applied, and, if the write changes the batch's view of it, releases the
    /// lock, calls the handlers and takes it back. Then does the staging's bookkeeping, says
    /// where the value goes (`slot`), and returns the acquisition the caller holds now.
    @usableFromInline @inline(never)
    func _stageCallingWillChange(
        _ newValue: Value, _ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock,
        slot: inout _StagingSlot, commit: @escaping _StagedEntry.Commit
    ) -> _HeldLock {
        let graph = graphRef.object
        let thread = context.object
        let me = _Ref(thread)
        // Held from now until the batch is applied: its commit ends the reservation.
        _waitForExclusiveAccess(thread, held)
        holdForWillChange(graph, me, held)
        thread.reservations.append(self)
        let old = _valueInView(held)
        if let isEqual = _isEqual {
            graph.state(held).comparingRef = .init(self)
            let equal = isEqual(old, newValue)
            graph.state(held).comparingRef = nil
            if equal {
                slot = _stageLocked(graph, thread, held, commit: commit)
                return held
            }
        }
        failIfCallingWillChangeHandlers(graph, me, held)
        let handlers = held[willChangeHandlers: extras(held)]
        held[willChangeCaller: extras(held)] = me
        held.release(graph)
        runWillChangeHandlers(handlers, old, newValue, graph)
        held = graph.takeLock()
        held[willChangeCaller: extras(held)] = nil
        // The handlers' own writes may have staged the batch's sole write meanwhile.
        graph.stageSoleWrite(of: thread, held)
        slot = _stageLocked(graph, thread, held, commit: commit)
        return held
    }

    /// Takes the value for the thread of `me` (no other thread holding it), as a
    /// compound assignment does: other threads' writes of it wait until `_endExclusive`.
    private func holdForWillChange(_ graph: _Graph, _ me: _Ref<_ThreadContext>, _ held: borrowing _HeldLock) {
        if _exclusiveOwner(held) == nil {
            _setExclusiveOwner(me, held)
            graph.state(held).exclusiveOwners += 1
        }
        held[exclusiveDepth: extras(held)] += 1
    }

    /// Stops a write of this value made while its handlers run on this thread (the
    /// value is held for this thread, so a handler call in progress is this thread's).
    private func failIfCallingWillChangeHandlers(
        _ graph: _Graph, _ me: _Ref<_ThreadContext>, _ held: borrowing _HeldLock
    ) {
        guard let caller = held[willChangeCaller: extras(held)], caller == me else { return }
        graph.unlock()
        _rippleFailure(
            "\(debugLabel) was written from inside one of its own willChange handlers, before the change they were told about is applied. A willChange handler must not write the value it observes (directly or through the reactions of its writes); write it after the change, from a reaction or a subscription."
        )
    }

    /// Calls the handlers in order (lock released), skipping any cancelled meanwhile.
    private func runWillChangeHandlers(
        _ handlers: [_WillChangeHandler<Value>], _ old: Value, _ new: Value, _ graph: _Graph
    ) {
        for handler in handlers {
            guard graph.withLock({ !handler.isCancelled }) else { continue }
            untracked { handler.call(old, new) }
        }
    }
}
