extension _Graph {
    /// Whether a computed value can be used without looking at its sources.
    @inline(__always)
    func isFresh(_ node: _Node) -> Bool {
        node.hasValue && (node.observers.isEmpty ? node.verifiedEpoch == epoch : !node.isStale)
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
        walk.append(_WalkFrame(node: root, index: 0))
        while true {
            let top = walk.count - 1
            let node = walk[top].node
            var index = walk[top].index
            var changed = false
            var descended = false
            while index < node.sources.count {
                let edge = node.sources[index]
                let dep = edge.node
                if dep.kind == .computed, !isFresh(dep) {
                    if dep.isEvaluating { failCycle(at: dep) }
                    if dep.hasValue {
                        walk[top].index = index
                        walk.append(_WalkFrame(node: dep, index: 0))
                        descended = true
                        break
                    }
                    recompute(dep)
                }
                if dep.version != edge.version {
                    changed = true
                    break
                }
                index += 1
            }
            if descended { continue }
            walk.removeLast()
            if walk.count == base { return changed }
            if changed { recompute(node) } else { markVerified(node) }
        }
    }

    /// Runs a computed value's derivation with tracking; bumps its version when the value changed.
    func recompute(_ node: _Node) {
        node.isEvaluating = true
        node.evaluationParent = evaluating
        let previous = evaluating
        evaluating = node
        beginTracking(node)
        let changed = node._evaluate()
        evaluating = previous
        node.evaluationParent = nil
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
            current = step.evaluationParent
        }
        names.append(node.debugLabel)
        _rippleFailure("dependency cycle: \(names.reversed().joined(separator: " → ")). A computed value may not read itself, directly or through others.")
    }
}
