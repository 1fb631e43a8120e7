/// What `body` reads, directly and transitively, without keeping anything: `body` runs once,
/// now, on the calling thread, tracked as a reaction's body is, and the snapshot of what that
/// run read is returned (Fisticuffs' `DependencyTracker.findDependencies`).
///
/// The snapshot's ``DependencySnapshot/root`` stands for `body`; its
/// ``DependencySnapshot/sources`` are the values `body` read directly, in the order first read,
/// and its ``DependencySnapshot/nodes`` include what those values derive from. Nothing observes
/// them once this returns.
///
/// ```swift
/// let first = Stored("Ada", name: "first"), last = Stored("Lovelace", name: "last")
/// let full = Computed(name: "full") { "\(first.value) \(last.value)" }
/// let read = dependencies { _ = full.value }
/// print(read.sources.map(\.name))      // ["'full'"]
/// print(read.nodes.map(\.name).dropFirst())   // ["'full'", "'first'", "'last'"]
/// ```
///
/// `body` runs with the graph's lock released, like a reaction's body: it may write (writes
/// are delivered as a reaction's are, once the snapshot is taken, and never run `body` again,
/// even when they change what it read) and what it creates belongs to no one.
///
/// - Precondition: Called where a new reaction runs at once: not inside a derivation, nor from a
///   reaction bound to an actor's executor off that executor.
/// - Complexity: One run of `body`, plus O(*n*) in the nodes upstream of what it read, at most
///   ``DependencySnapshot/limit``.
public func dependencies(
    file: StaticString = #fileID,
    line: UInt = #line,
    of body: @escaping () -> Void
) -> DependencySnapshot {
    // Run once, at once, on this thread (checked below), before this function returns: the
    // closure never crosses a thread, though the reaction's body type asks for a `Sendable`
    // one. `_FirstRun` keeps it, and calls it from the claiming run only.
    let first = _FirstRun(body)
    let subscription = withoutOwner {
        _startReaction(
            _ReactionNode(origin: _Origin(name: nil, fileID: file, line: line)) {
                // Only the first run calls `body`: a later one (a write of `body`'s, delivered
                // before the subscription is cancelled, or another thread's) does nothing.
                guard first.claim() else { return }
                first.runBody()
                // What this run read, taken before its own writes are delivered.
                first.snapshot = _ThreadContext.current.reaction.map { _graph.dependencySnapshot(of: $0) }
            }
        )
    }
    subscription.cancel()
    guard let snapshot = first.snapshot else {
        _rippleFailure(
            "dependencies(of:) at \(file):\(line): the body did not run at once (called where reactions are deferred, such as inside a derivation)"
        )
    }
    return snapshot
}

/// The first run of `dependencies(of:)`'s reaction: claimed once, by the run that calls the
/// body on the calling thread, which then records what it read.
private final class _FirstRun: @unchecked Sendable {
    // @unchecked: `body` is called, and `snapshot` written, by the claiming run only, on the
    // calling thread (when the first run does not start at once, `dependencies(of:)` stops the
    // program); `snapshot` is read there after it.
    private let claimed = _OnceFlag()
    private let body: () -> Void
    var snapshot: DependencySnapshot?

    init(_ body: @escaping () -> Void) {
        self.body = body
    }

    /// Whether this run is the first (true once).
    func claim() -> Bool { claimed.setIfUnset() }

    /// Calls `dependencies(of:)`'s body: the claiming run's work.
    func runBody() { body() }
}
