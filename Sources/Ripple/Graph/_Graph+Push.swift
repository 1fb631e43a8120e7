extension _Graph {
    /// Marks everything live downstream of `source` stale and queues the reactions it reaches.
    /// Stops at nodes already stale: what lies beyond them is already marked.
    func propagate(from source: _Node, into context: _ThreadContext) {
        let base = scratch.count
        scratch.append(.passUnretained(source))
        while scratch.count > base {
            scratch.removeLast()._withUnsafeGuaranteedRef { node in
                let count = node.observers.count
                guard count > 0, let observers = node.observers.elements else { return }
                // Marking only pushes onto `scratch`; it never changes this list.
                for index in 0..<count {
                    observers[index].ref._withUnsafeGuaranteedRef { observer in mark(observer, context) }
                }
            }
        }
    }

    @inline(__always)
    private func mark(_ observer: _Node, _ context: _ThreadContext) {
        if observer.isStale { return }
        switch observer.kind {
        case .computed:
            observer.isStale = true
            scratch.append(.passUnretained(observer))
        case .reaction:
            observer.isStale = true
            context.pending.append(.reaction(unsafeDowncast(observer, to: _ReactionNode.self)))
        case .watcher:
            let watcher = unsafeDowncast(observer, to: _WatcherNode.self)
            if watcher.isArmed { context.pending.append(.watch(watcher)) }
        case .stored:
            break
        }
    }
}
