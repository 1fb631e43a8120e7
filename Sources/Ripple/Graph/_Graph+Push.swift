import _RippleRef

extension _Graph {
    /// Marks everything live downstream of `source` stale and queues the reactions it reaches.
    /// Stops at nodes already stale: what lies beyond them is already marked. While another
    /// thread has a reaction's run in progress, then tells the runs the change reached (see
    /// `_RunSnapshots`).
    func propagate(from source: _Node, into context: _ThreadContext, _ held: borrowing _HeldLock) {
        markDownstream(of: source, context, held)
        if state(held).snapshots.runningThreads != 0 { changePropagated(from: source, context, held) }
    }

    /// `propagate`'s marking.
    @inline(__always)
    private func markDownstream(of source: _Node, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        assertLockHeld()
        let base = locked.scratch.count
        // The node to visit next, when it need not go through `scratch`: the only observer of
        // the node just visited, if it is a computed value to mark (the stack would give it
        // back at once). Along a chain, every node.
        var next: _Ref<_Node>? = .init(source)
        while true {
            let node: _Ref<_Node>
            if let following = next {
                node = following
                next = nil
            } else if locked.scratch.count > base {
                node = locked.scratch.removeLast()
            } else {
                return
            }
            // The node's slots through a closure that only reads them: the optimizer inlines
            // it, where a closure holding the loop below stayed a call per node. Marking only
            // pushes onto `scratch`; it never changes the list. A tombstone's node is a stored
            // value: marking passes it by.
            let links = node.with { held[observers: $0].slotsInUse }
            let end = links.count
            if end == 1 {
                // One observer: a computed one is visited next, without the stack, unless it
                // is marked already (a diamond's other branches), and then there is nothing to do.
                let only = links[0].ref
                if only.with({ $0.kind == .computed }) {
                    if only.with({ !held[isStale: $0] }) {
                        only.with { held[isStale: $0] = true }
                        next = only
                    }
                    continue
                }
            }
            var slot = 0
            while slot < end {
                links[slot].ref.with { mark($0, context, held) }
                slot &+= 1
            }
        }
    }

    @inline(__always)
    private func mark(_ observer: _Node, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        // Tests in order of frequency rather than a `switch`: its jump table is an indirect
        // branch, mispredicted more often along a chain of computed values ending in a reaction.
        let kind = observer.kind
        if kind == .computed {
            if held[isStale: observer] { return }
            held[isStale: observer] = true
            state(held).scratch.append(.init(observer))
        } else if kind == .reaction {
            let reaction = _downcast(observer, to: _ReactionNode.self)
            // A write its own body queued: the lifecycle counts the run it triggers.
            switch held[lifecycle: reaction].marked(
                bySelf: context.writerRef?.refers(to: observer) == true)
            {
            case .none: return
            case .queue: context.jobs.append(.reaction(reaction))
            case .stopRunaway: stopRunaway(reaction, held)
            }
        } else if kind == .watcher {
            let watcher = _downcast(observer, to: _WatcherNode.self)
            held[lifecycle: watcher].jobQueued()
            context.jobs.append(.watch(watcher))
        }
    }

    /// A reaction re-triggered itself more than `maximumRounds` times in a row:
    /// stops the program with a message naming it.
    @inline(never)
    private func stopRunaway(_ reaction: _ReactionNode, _ held: borrowing _HeldLock) -> Never {
        _rippleFailure(
            "runaway reaction: \(reaction.debugLabel) re-triggered itself more than \(_Graph.maximumRounds) times in a row: each run writes a value it reads, and that write runs it again (counted across executor hops: on an actor every run is a delivery of its own). A reaction that writes what it reads must stop changing it."
        )
    }
}
