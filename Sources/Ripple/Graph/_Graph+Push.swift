extension _Graph {
    /// Marks everything live downstream of `source` stale and queues the reactions it reaches.
    /// Stops at nodes already stale: what lies beyond them is already marked.
    func propagate(from source: _Node, into context: _ThreadContext) {
        let base = scratch.count
        scratch.append(_Link(unretained: source))
        while scratch.count > base {
            unowned(unsafe) let node = scratch.removeLast().node
            let count = node.observers.count
            var index = 0
            while index < count {
                unowned(unsafe) let observer = node.observers[index].node
                index += 1
                if observer.isStale { continue }
                switch observer.kind {
                case .computed:
                    observer.isStale = true
                    scratch.append(_Link(unretained: observer))
                case .reaction:
                    observer.isStale = true
                    context.pending.append(.reaction(unsafeDowncast(observer, to: _ReactionNode.self)))
                case .watcher:
                    let watcher = unsafeDowncast(observer, to: _WatcherNode.self)
                    if watcher.isArmed { context.pending.append(.notify(watcher)) }
                case .stored:
                    break
                }
            }
        }
    }
}
