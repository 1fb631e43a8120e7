/// Writes inside a batch: staged on the writing thread, applied together when the outermost
/// batch ends (see `_Staging`).
extension Stored {
    /// Records a write made inside a batch on this thread; it is applied when the outermost
    /// batch ends. Only the bookkeeping runs under the lock; the staged value it replaces is
    /// released after.
    @usableFromInline
    func _stage(_ newValue: Value, _ context: Unmanaged<_ThreadContext>) {
        let replaced: Value? = graphRef._withUnsafeGuaranteedRef { graph in
            context._withUnsafeGuaranteedRef { context in
                graph.lock.lock()
                refuseWriteDuringEvaluation(graph, context)
                let staging = context.stagingCreatingIfNeeded
                staging.generation &+= 1
                if let index = staging.indexByNode[ObjectIdentifier(self)] {
                    let entry = unsafeDowncast(staging.entries[index], to: _StagedValue<Value>.self)
                    entry.count &+= 1
                    let old = entry.value
                    entry.value = newValue
                    graph.unlock()
                    return old
                }
                if staging.entries.isEmpty { graph.stagingThreads += 1 }
                staging.indexByNode[ObjectIdentifier(self)] = staging.entries.count
                staging.entries.append(_StagedValue(node: self, value: newValue))
                _stagedCount += 1
                graph.unlock()
                return nil
            }
        }
        _ = replaced
        context._withUnsafeGuaranteedRef { $0.staging?.emptyTrash() }
    }

    /// Stops a write made while a computed value is being evaluated on this thread, shared or
    /// private, even inside `untracked { }` (lock held).
    private func refuseWriteDuringEvaluation(_ graph: _Graph, _ context: _ThreadContext) {
        let evaluating = graph.evaluatingRef ?? context.suspendedEvaluationRef ?? context.staging?.privateRef
        guard let evaluating else { return }
        graph.unlock()
        _rippleFailure("\(debugLabel) was written while \(evaluating.takeUnretainedValue().debugLabel) was being evaluated. A computed value must not write; use a reaction (observe) instead.")
    }

    /// A read of a value some thread has staged (lock held; released on return): the staged
    /// value if this thread staged it and reads in its batch's view, else the committed one.
    @usableFromInline
    func _readStaged() -> Value {
        let context = _ThreadContext.current
        let view = context.view(graphRef.takeUnretainedValue())
        let current: Value
        if view != .committed, let entry = context.staging?.entry(for: self) {
            current = unsafeDowncast(entry, to: _StagedValue<Value>.self).value
        } else {
            current = _value
        }
        if view == .privateEvaluation {
            graphRef._withUnsafeGuaranteedRef { $0.unlock() }
            return current
        }
        if _trackAndUnlock() { return current }
        _untrackedRead()
        return current
    }

    /// The value in this thread's view (lock held): the staged value inside its batch.
    func _valueInView() -> Value {
        guard _stagedCount != 0 else { return _value }
        let context = _ThreadContext.current
        guard context.view(graphRef.takeUnretainedValue()) != .committed, let entry = context.staging?.entry(for: self) else {
            return _value
        }
        return unsafeDowncast(entry, to: _StagedValue<Value>.self).value
    }

    /// The writes this thread's batch staged and has not yet applied (lock held).
    func _stagedWriteCount() -> Int {
        guard _stagedCount != 0 else { return 0 }
        let context = _ThreadContext.current
        guard context.view(graphRef.takeUnretainedValue()) != .committed, let entry = context.staging?.entry(for: self) else {
            return 0
        }
        return entry.count
    }

    /// Applies a staged write (lock held, outside any batch): counts its `writes` writes,
    /// then, unless `staged` equals the committed value, swaps it in and propagates the
    /// change. The replaced value is left in `staged`, for the caller to release unlocked.
    func _commitStaged(_ staged: inout Value, writes: Int, _ context: Unmanaged<_ThreadContext>) {
        _stagedCount -= 1
        for _ in 1..<writes {
            _lockForWrite(context)
            _unlockAfterWrite()
        }
        _lockForWrite(context)
        if let _isEqual, _isEqual(_value, staged) {
            _unlockAfterWrite()
            return
        }
        _ = _stampVersion(context)
        swap(&_value, &staged)
        _commitWrite(context)
    }
}
