import _RippleRef

/// What a reaction keeps to say why it runs (see `whyDidThisRun()`), all under the lock.
///
/// At the start of a run, the reaction notes the version of each source it read last time (its
/// baseline). A source whose version differs has changed since then: at once for a stored
/// value, and for a computed value once it was brought up to date (the run's own read does
/// that). So the changes are complete at the end of the run, and at any moment during it for
/// the sources the run has read so far.
extension _ReactionNode {
    /// Notes the versions of the sources of the last run. Before its first run a
    /// reaction has no sources: its baseline is empty.
    @inline(never)
    func recordRunStart(_ graph: _Graph, _ held: borrowing _HeldLock) {
        var baseline: [(source: _Ref<_Node>, version: Int)] = []
        baseline.reserveCapacity(held[sources: self].count)
        for index in 0..<held[sources: self].count {
            baseline.append((held[sources: self][index].ref, held[sources: self][index].version))
        }
        graph.state(held).whyBaselines[ObjectIdentifier(self)] = baseline
    }

    /// The sources that changed since the last run, as far as known now (during or
    /// at the end of a run: the baseline's sources are alive until the run's edges are
    /// released).
    func changesSinceLastRun(_ graph: _Graph, _ held: borrowing _HeldLock) -> [_PendingSourceChange] {
        guard let baseline = graph.state(held).whyBaselines[ObjectIdentifier(self)] else { return [] }
        let seen = graph.state(held).whySnapshots[ObjectIdentifier(self)]
        var changes: [_PendingSourceChange] = []
        for (ref, version) in baseline {
            let source = ref.object
            guard held[version: source] != version else { continue }
            changes.append(
                _PendingSourceChange(
                    source: source.traceName, old: seen?[ObjectIdentifier(source)], new: source._traceValue(held)))
        }
        return changes
    }

    /// Ends a run's record (after its tracking ended): tells the tracers; and for a
    /// reaction that records why it runs, keeps its changes for `whyDidThisRun(named:)` and the
    /// values of the sources it read, as it read them, for the next run. (Other reactions keep no values, even
    /// while a tracer is installed: a value kept would outlive its replacement by a write.)
    @inline(never)
    func recordRunEnd(_ graph: _Graph, _ context: _ThreadContext, keepingValues: Bool, _ held: borrowing _HeldLock) {
        let changes = changesSinceLastRun(graph, held)
        graph.state(held).whyBaselines[ObjectIdentifier(self)] = nil
        if graph.isTracing {
            graph.recordTrace(.reactionRun(node: traceName, changes: changes), context, held)
            if !context.wokeReactions.isEmpty {
                context.wokeReactions[context.wokeReactions.count - 1].append(traceName)
            }
        }
        guard keepingValues else { return }
        graph.state(held).whyChanges[ObjectIdentifier(self)] = (origin.name, changes)
        var values: [ObjectIdentifier: Any] = [:]
        values.reserveCapacity(held[sources: self].count)
        for index in 0..<held[sources: self].count {
            let source = held[sources: self][index].node
            // A source written since the run read it (by another thread, while the body ran)
            // no longer holds the value the run saw: its old value is unknown to the next run,
            // whose change it is, rather than its new value twice.
            guard held[version: source] == held[sources: self][index].version else { continue }
            if let value = source._traceValue(held) { values[ObjectIdentifier(source)] = value }
        }
        graph.state(held).whySnapshots[ObjectIdentifier(self)] = values
    }

    /// Drops what this reaction kept (on disposal).
    func forgetWhy(_ graph: _Graph, _ held: borrowing _HeldLock) {
        graph.state(held).whySnapshots[ObjectIdentifier(self)] = nil
        graph.state(held).whyChanges[ObjectIdentifier(self)] = nil
        graph.state(held).whyBaselines[ObjectIdentifier(self)] = nil
    }
}
