import _RippleRef

/// Telling readers that a value changed in place: ``Stored/trigger()`` and ``trigger(_:)``.
///
/// A trigger is a write that keeps the value and skips the equality check: it counts as a
/// write (``Stored/writeCount``), stamps a new version and marks the readers, so they run
/// exactly as they would after a write of a different value, on the same paths (unbatched,
/// staged in a batch, queued inside a reaction). No read path changes for it.
extension Stored {
    /// Tells the readers of this value that it changed in place, as if a different value had
    /// been written.
    ///
    /// Use it when the value is a reference whose contents changed (a class instance, a
    /// buffer), or a value mutated in place through `withUnsafeMutable…`: writing the same
    /// instance back is an equal write, which notifies nobody.
    ///
    /// ```swift
    /// let canvas = Stored(Canvas(), equals: { $0 === $1 })
    /// canvas.value.draw(line)   // a class: the reference is unchanged, nothing runs
    /// canvas.trigger()          // readers run now, once
    /// ```
    ///
    /// A trigger is ordered like a write: outside a batch its reactions run before it returns;
    /// inside a ``batch(_:)`` it is applied when the outermost batch ends, and the readers run
    /// once for the whole batch however many triggers and writes it made; inside a reaction it
    /// is queued after the current round, in order with the reaction's writes. It may be called
    /// from any thread. Only this value's equality is bypassed: a computed value it reaches is
    /// evaluated again and still cut off by its own equality.
    ///
    /// - Precondition: Not called inside a derivation (a `Computed`'s closure), which must not
    ///   change anything.
    /// - Complexity: The cost of a write: O(*n*) in the live nodes downstream not yet marked.
    public func trigger() {
        let context = _ThreadContext.currentRef
        switch context.with({ $0.writes.route }) {
        case .queue:
            _queueWrite(context) { [self] in _triggerStaged(context) }
        case .stage:
            _triggerStaged(context)
        case .apply:
            _triggerNow(context, runningJobs: true)
            _deliver(context)
        }
    }

    /// Applies a trigger at once (outside any batch): a write of the value it has.
    private func _triggerNow(_ context: _Ref<_ThreadContext>, runningJobs: Bool) {
        // Nil: only for the write of an overtaken read-modify-write, which a trigger is not.
        guard let held = _lockForWrite(context) else { return }
        _applyTrigger(context, held, runningJobs: runningJobs)
    }

    /// A trigger's commit, with the acquisition `_lockForWrite` returned (released here).
    private func _applyTrigger(_ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock, runningJobs: Bool) {
        _stampVersion(held)
        if graphRef.with({ $0.tracingCount != 0 }) {
            _recordWrite(old: _value, new: _value, context, held)
        }
        _commitWrite(context, held, runningJobs: runningJobs)
    }

    /// A trigger inside a batch (or a queued one, applied like a batch): noted in the batch as
    /// an entry of its own, applied in order with the batch's writes when it ends. Nothing is
    /// staged as the value, so the batch's reads of it, and the value itself, are untouched.
    private func _triggerStaged(_ context: _Ref<_ThreadContext>) {
        let inBatch = context.with { context -> Bool in
            guard context.writes.batchDepth > 0 else { return false }
            graphRef.with { graph in
                let held = graph.takeLock()
                graph.refuseWrite(to: self, on: context, held)
                // The batch's sole write, if it kept one, comes first (and the batch is now
                // more than that write).
                graph.stageSoleWrite(of: context, held)
                let staging = context.staging
                staging.generation &+= 1
                if !staging.isActive {
                    graph.stagingThreads += 1
                    if graph.isTracing { graph.recordTrace(.batchStart, context, held) }
                }
                staging.append(self) { node, _, context, _ in
                    let stored = _downcast(node, to: Stored<Value>.self)
                    guard let held = stored._lockForWrite(context) else { return }
                    stored._applyTrigger(context, held, runningJobs: false)
                }
                held.release(graph)
            }
            return true
        }
        // A queued trigger applied outside any batch: applied at once.
        if !inBatch { _triggerNow(context, runningJobs: false) }
    }
}

/// A ``Stored`` seen without its value's type, for ``trigger(_:)``.
protocol _Triggerable: _Node {
    func trigger()
}

extension Stored: _Triggerable {}

/// Tells the readers of every ``Stored`` that `body` reads that its value changed in place, as
/// one change: readers run once, as after a ``batch(_:)`` of ``Stored/trigger()`` calls.
///
/// The batch-friendly form of ``Stored/trigger()`` (alien-signals' `trigger(fn)`): mutate the
/// values' contents inside `body`, or just read them there.
///
/// ```swift
/// trigger {
///     canvas.value.draw(line)
///     layers.value.markDirty()
/// }   // readers of canvas and layers run once, here
/// ```
///
/// `body` runs like a derivation, at once, on this thread, while the thread holds the graph:
/// what it reads is recorded, and it must not write reactive values (a write stops the program
/// with a message naming the value), block on another thread or await. Only the values it
/// reads directly are triggered: a ``Computed`` it reads is not a `Stored`, and is evaluated
/// again anyway when a triggered value reaches it. Ordered like ``Stored/trigger()``: inside a
/// reaction the triggers are queued after the current round, as one batch.
///
/// - Complexity: One run of `body`, then one write per `Stored` it read.
public func trigger(file: StaticString = #fileID, line: UInt = #line, _ body: () -> Void) {
    let sources: [any _Triggerable] = withoutActuallyEscaping(body) { body in
        let node = _ComputedNode<Void>(
            origin: _Origin(name: "trigger { }", fileID: file, line: line), isEqual: nil, derive: body)
        // Evaluated in the shared graph, where its reads are recorded, and nowhere else: read
        // as a value inside a batch with staged writes, the batch's view would run `body` a
        // second time and keep the node (and `body`) until the batch ends.
        let held = node._lockAndRefresh()
        // The edges retain their sources; the array retains them past the computed value.
        var found: [any _Triggerable] = []
        for index in 0..<held[sources: node].count {
            if let stored = held[sources: node][index].ref.object as? any _Triggerable {
                found.append(stored)
            }
        }
        node._endGeneralRead(held)
        return found
    }
    guard !sources.isEmpty else { return }
    let context = _ThreadContext.current
    if context.writes.route == .queue {
        // One queued unit, applied after the current round.
        _graph.queueWrite(context) { batch { for stored in sources { stored.trigger() } } }
        return
    }
    batch { for stored in sources { stored.trigger() } }
}
