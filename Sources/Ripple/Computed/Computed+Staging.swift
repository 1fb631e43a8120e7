import _RippleRef

/// Reads of a computed value while a thread is inside a batch with staged writes (see
/// `_Staging`).
extension Computed {
    /// A read made while some thread has staged writes, under `held` (node brought up to date
    /// in the shared graph), which it releases. On the batching thread, the value in its
    /// batch's view; anywhere else, the shared value. `untrackedRead` (handed the acquisition,
    /// it releases it) registers a read nothing in Ripple tracked with Observation.
    func _readStaged(_ held: consuming _HeldLock, untrackedRead: (consuming _HeldLock) -> Void) -> Value {
        Self._readStaged(node, held, untrackedRead: untrackedRead)
    }

    /// ``_readStaged(_:untrackedRead:)`` given the node, for a caller that holds no reference
    /// to the handle (see `_generalRead(of:_:)`).
    @usableFromInline
    static func _readStaged(
        _ node: _ComputedNode<Value>, _ held: consuming _HeldLock, untrackedRead: (consuming _HeldLock) -> Void
    ) -> Value {
        let context = _ThreadContext.current
        let graph = node.graphRef.object
        switch context.view(graph, held) {
        case .committed:
            let current = node.current
            if node._trackRead(held) {
                node._endGeneralRead(held)
                return current
            }
            untrackedRead(held)
            return current
        case .privateEvaluation:
            // Inside another private derivation: nothing is tracked.
            let current = context.staging.privateValue(of: node, graph, context, held)
            held.release(graph)
            return current
        case .batch:
            // A top-level read: tracked (a reaction started inside the batch re-runs once the
            // batch is applied) or registered with Observation, as any read.
            let staging = context.staging
            let current = staging.privateValue(of: node, graph, context, held)
            if graph.trackRead(node, held) {
                // A private value, which the node's own may never become: the reaction's edge
                // holds a version the node never has, so that the reaction runs again whenever
                // it is marked after the batch, also when the apply leaves the node as it was.
                if staging.hasPrivateValue(of: node, held),
                    let reader = graph.recordVersionOfRunRead(of: node, _Graph.privateReadVersion, held)
                {
                    // Kept with the value's equality, so that the reaction does not run again if
                    // the committed value is this one (see `_Graph+PrivateReads.swift`).
                    if node.comparesWithEquals {
                        graph.notePrivateRead(of: node, by: reader, held) { _isKnownEqual(current, $0) }
                    } else if node.hasOwnEquality {
                        let isEqual = _downcast(node, to: _ComparingComputedNode<Value>.self).isEqual
                        graph.notePrivateRead(of: node, by: reader, held) { committed in
                            (committed as? Value).map { isEqual(current, $0) } ?? false
                        }
                    }
                }
                held.release(graph)
            } else {
                untrackedRead(held)
            }
            staging.emptyTrash()
            return current
        }
    }
}
