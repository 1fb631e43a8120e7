/// The sources of the running reaction that changed since its last run, with their values
/// then and now: why it is running (MobX's `trace`).
///
/// ```swift
/// let render = observe(named: "render") {
///     tipView.isHidden = isTipHidden.value
///     print(whyDidThisRun())      // [] on the first run; then ['isTipHidden' true → false]
/// }
/// ```
///
/// Only the reaction's direct sources are listed: a computed value it read is listed when its
/// value changed, not the stored values behind it (ask a tracer for the whole path). A stored
/// value is listed as soon as it changed; a computed value once this run has read it (the
/// read brings it up to date), so call it after the reads: at the end of the body, the list
/// is complete.
///
/// A named reaction (`observe(named:)`) keeps the values of its sources at each run, so the
/// list is complete, with old and new values, from its second run on. Any other reaction starts
/// keeping them when it first asks: that call returns an empty list, and the next run lists the
/// changed sources with their new values only. The values cost memory only for those
/// reactions. A source that another thread wrote while the last run's body was running is
/// also listed with its new value only: the value that run read is not kept. (While a tracer
/// is installed, the runs of other reactions are traced with their changed sources and new
/// values, without old values.)
///
/// Called outside a reaction (or a handler built on one), it stops the program with a message
/// saying so.
///
/// - Returns: The changed sources; empty on the reaction's first run.
/// - Complexity: O(*s*) in the reaction's sources, at each run of a reaction that records.
public func whyDidThisRun() -> [SourceChange] {
    guard let reaction = _ThreadContext.current.reaction else {
        _rippleFailure(
            "whyDidThisRun() was called outside a reaction. Call it inside the body of observe { } (or a handler such as onChange)."
        )
    }
    let pending = _graph.withLock { (held) -> [_PendingSourceChange] in
        guard held[lifecycle: reaction].recordsWhy else {
            // From the end of this run on, it keeps what it needs.
            held[lifecycle: reaction].startRecordingWhy()
            return []
        }
        return reaction.changesSinceLastRun(_graph, held)
    }
    return pending.map(\.formatted)
}

/// Why the reaction created with `observe(named: name)` last ran: the sources that changed
/// before that run, with their values then and now (see ``whyDidThisRun()``).
///
/// For debugging a reaction from outside it (a view that updates too often).
///
/// ```swift
/// print(whyDidThisRun(named: "render") ?? [])
/// ```
///
/// - Returns: The changes, or `nil` when no live reaction has that name.
/// - Complexity: O(*r*) in the live reactions that record why they run.
public func whyDidThisRun(named name: String) -> [SourceChange]? {
    let pending = _graph.withLock { (held) -> [_PendingSourceChange]? in
        _graph.state(held).whyChanges.values.first { $0.name == name }?.changes
    }
    return pending?.map(\.formatted)
}
