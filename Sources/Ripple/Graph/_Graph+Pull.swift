/// Why a scan of a node's sources stopped.
enum _ScanStop {
    /// A computed source must be brought up to date first.
    case stale
    /// A source's version differs from the one the node saw.
    case changed
    /// Every source is as the node saw it.
    case unchanged
}

extension _Graph {
    /// Whether a computed value can be used without looking at its sources.
    @inline(__always)
    func isFresh(_ node: _Node) -> Bool {
        node.hasValue && (node.hasObservers ? !node.isStale : node.verifiedEpoch == epoch)
    }

    @inline(__always)
    func markVerified(_ node: _Node) {
        node.isStale = false
        node.verifiedEpoch = epoch
    }

    /// Brings a computed value up to date, evaluating only what really changed.
    @inline(__always)
    func refresh(_ node: _Node) {
        if node.isEvaluating { failCycle(at: node) }
        if isFresh(node) { return }
        if !node.hasValue || sourcesChanged(node) {
            recompute(node)
        } else {
            markVerified(node)
        }
    }

    /// Whether any source of `root` changed since `root` last read it.
    ///
    /// Stale computed sources are brought up to date first, depth first, with an explicit
    /// stack: a chain of any length is checked without recursion.
    func sourcesChanged(_ root: _Node) -> Bool {
        let base = walk.count
        walk.append(_WalkFrame(ref: .passUnretained(root), index: 0))
        while true {
            let top = walk.count &- 1
            let frame = walk[top]
            // Guaranteed references and an unsafe buffer: the scan does no reference counting.
            let (stop, index) = frame.ref._withUnsafeGuaranteedRef { node -> (_ScanStop, Int) in
                let count = node.sources.count
                var index = frame.index
                guard index < count, let sources = node.sources.elements else { return (.unchanged, index) }
                while index < count {
                    let edge = sources[index]
                    let stop = edge.ref._withUnsafeGuaranteedRef { dep -> _ScanStop? in
                        if dep.kind == .computed, !isFresh(dep) { return .stale }
                        return dep.version != edge.version ? .changed : nil
                    }
                    if let stop { return (stop, index) }
                    index &+= 1
                }
                return (.unchanged, index)
            }
            switch stop {
            case .stale:
                walk[top].index = index
                let depRef = frame.ref._withUnsafeGuaranteedRef { $0.sources[index].ref }
                depRef._withUnsafeGuaranteedRef { dep in
                    if dep.isEvaluating { failCycle(at: dep) }
                    if dep.hasValue {
                        walk.append(_WalkFrame(ref: depRef, index: 0))
                    } else {
                        recompute(dep)  // now fresh: the scan resumes at the same edge
                    }
                }
            case .changed, .unchanged:
                walk.removeLast()
                let changed = stop == .changed
                if walk.count == base { return changed }
                frame.ref._withUnsafeGuaranteedRef { node in
                    if changed { recompute(node) } else { markVerified(node) }
                }
            }
        }
    }

    /// Runs a computed value's derivation with tracking; bumps its version when the value changed.
    func recompute(_ node: _Node) {
        node.isEvaluating = true
        // Unmanaged throughout: saving and restoring the evaluating node costs no reference counting.
        let previous = evaluatingRef
        node.evaluationParentRef = previous
        evaluatingRef = Unmanaged.passUnretained(node)
        beginTracking(node)
        let changed = node.specializedEvaluate(node)
        evaluatingRef = previous
        node.evaluationParentRef = nil
        node.isEvaluating = false
        endTracking(node)
        node.hasValue = true
        markVerified(node)
        if changed { node.version &+= 1 }
    }

    /// Stops with a message naming every computed value on the cycle through `node`.
    func failCycle(at node: _Node) -> Never {
        var names = [node.debugLabel]
        var current = evaluating
        while let step = current, step !== node {
            names.append(step.debugLabel)
            current = step.evaluationParentRef?.takeUnretainedValue()
        }
        names.append(node.debugLabel)
        _rippleFailure("dependency cycle: \(names.reversed().joined(separator: " → ")). A computed value may not read itself, directly or through others.")
    }
}

// The read entry points are methods of the node, and reach the graph through the node's
// unmanaged reference: no global access (a lazy-initialisation check each time), no class
// metadata, and no reference counting.
extension _Node {
    /// Takes the lock for a read of this computed value and brings it up to date. Inlinable,
    /// like the other read entry points: a read compiled in the client takes the lock inline
    /// and makes one call into the graph.
    @inlinable
    final func _lockAndRefresh() {
        graphRef._withUnsafeGuaranteedRef { graph in
            graph.lock.lock()
            graph._refreshLocked(self)
        }
    }

    /// Takes the lock for a read of this stored value.
    @inlinable
    final func _lockForRead() {
        graphRef._withUnsafeGuaranteedRef { $0.lock.lock() }
    }

    /// Records the read for the running derivation or reaction and releases the lock.
    /// Returns false, with the lock still held, when nothing tracked the read.
    @inlinable
    final func _trackAndUnlock() -> Bool {
        graphRef._withUnsafeGuaranteedRef { $0._trackAndUnlock(self) }
    }
}

extension _Graph {
    /// Brings a computed value up to date for a read (lock held).
    @usableFromInline
    final func _refreshLocked(_ node: _Node) {
        refresh(node)
    }

    /// Records a read for the running derivation or reaction and releases the lock. Returns
    /// false, with the lock still held, when nothing tracked the read.
    @usableFromInline
    final func _trackAndUnlock(_ node: _Node) -> Bool {
        guard trackRead(node) else { return false }
        unlock()
        return true
    }
}
