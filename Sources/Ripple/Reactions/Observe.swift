import _RippleRef

/// Runs `body` now and again after every change of anything it read.
///
/// The reaction runs on the thread that made the change, once per write or outermost
/// ``batch(_:)``, after the graph's lock is released: it may write, block, or hop to an
/// actor. It sees a consistent graph: no computed value it reads is derived from a mix of old
/// and new values, and writes made on its own thread are all there or none. Dependencies are
/// tracked anew on every run.
///
/// **Other threads' changes.** A run reads each value when it reaches it, with the graph's
/// lock released between reads. If another thread applies a write or a batch that changes
/// something the run has already read, the run goes on reading every value that change wrote
/// as it was before it (and every ``Computed`` derived from them), then runs again, once, with
/// the new values: a run never sees part of a batch, nor a value change under it. A change that
/// touches nothing the run has read is read as it is.
///
/// Writes made inside the body are queued and committed after the current round of
/// reactions, so every reaction sees every committed value, in order.
///
/// **Ownership.** Reactions (and ``ReactionScope``s) created inside the body belong to this
/// run: they are cancelled before the next run and on cancel, even if you keep their
/// subscriptions. Create them inside ``withoutOwner(_:)`` to keep them. Handlers are not
/// bodies: what `onChange`, `when` or an ``Event`` subscriber creates belongs only to its
/// subscription.
///
/// **Teardown.** Before each re-run, and on cancel, the run is torn down in the order of
/// `defer`: the reactions it created are cancelled, the last created first (each torn down
/// the same way, depth first), then its cleanups (``onCleanup(_:)``) run, the last
/// registered first. A teardown never becomes part of someone else's run: what it reads is
/// not a dependency of a reaction or computed value that cancels this one, and what it
/// creates belongs to no one.
///
/// A body that writes a value it reads runs again after its own write. More than 10 000 such
/// rounds in one delivery stop the program with a "runaway reaction" message naming the
/// writer. A write the body hands to a `Task` or a thread it starts is not attributed to it,
/// so a loop through one is not detected.
///
/// ```swift
/// let subscription = observe {
///     tipView.isHidden = isTipHidden.value
/// }
/// ```
///
/// - Parameters:
///   - body: The reaction. Use ``onCleanup(_:)`` inside it to register cleanup work.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observe(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable () -> Void
) -> Subscription {
    _startReaction(_ReactionNode(origin: _Origin(name: nil, fileID: file, line: line), body: body))
}

/// Runs `body` now and again after every change of anything it read; the closure `body`
/// returns runs before the next run and when the reaction is cancelled.
///
/// The same as ``observe(file:line:_:)`` with ``onCleanup(_:)``, for reactions that acquire
/// something on every run (a separate name, so that `observe { }` never becomes ambiguous):
///
/// ```swift
/// let subscription = observeWithCleanup {
///     let timer = startTimer(every: interval.value)
///     return { timer.stop() }
/// }
/// ```
///
/// - Parameters:
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - body: The reaction; it returns its cleanup.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observeWithCleanup(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable () -> @Sendable () -> Void
) -> Subscription {
    _startReaction(
        _ReactionNode(origin: _Origin(name: nil, fileID: file, line: line)) {
            onCleanup(body())
        })
}

/// Runs `body` on `actor` now and again after every change of anything it read.
///
/// Changes that happen while a run is already on its way are coalesced: the actor runs the
/// body once with the latest values. The first run is sent to the actor too, so it has not
/// necessarily happened when this function returns.
///
/// A body that writes a value it reads runs again after its own write. Each run here is a
/// delivery of its own, so Ripple counts such runs on the reaction: more than 10 000 in a row
/// (a run triggered by any other write starts the count again) stop the program with a
/// "runaway reaction" message naming it. Only writes the body makes itself are counted: a
/// write it hands to a `Task` or a thread it starts is not attributed to it (that would take a
/// task-local on every run), so a loop through one is not detected.
///
/// ```swift
/// let subscription = observe(on: renderer) { renderer in
///     renderer.draw(scene.value)
/// }
/// ```
///
/// - Parameters:
///   - actor: The actor whose executor runs the body.
///   - body: The reaction, isolated to `actor`.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observe<A: Actor>(
    on actor: A,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable (isolated A) -> Void
) -> Subscription {
    let node = _ReactionNode(
        origin: _Origin(name: nil, fileID: file, line: line),
        schedule: { job in Task { await _run(job, on: actor) } },
        body: { actor.assumeIsolated { body($0) } }
    )
    return _startReaction(node)
}

/// Runs `body` on the main actor now and again after every change of anything it read.
///
/// The body is isolated to the main actor, so it may read and write main-actor state (a
/// `@MainActor` view model, a view, a ``MainActorComputed``) and need not be `Sendable`. Use
/// it for UI updates, and for reactions inside main-actor classes:
///
/// ```swift
/// @MainActor final class TodoScreen {
///     let list: TodoList
///     var title = ""
///     private var subscription: Subscription?
///
///     init(list: TodoList) {
///         self.list = list
///         subscription = observeOnMainActor(owner: self) { screen in
///             screen.title = "\(screen.list.remaining.value) left"
///         }
///     }
/// }
/// ```
///
/// **When it runs.** Called from main-actor code, its first run happens before it returns.
/// After that, a change made on the main thread runs it at once, like an
/// ``observe(file:line:_:)`` reaction: in the round of reactions that change triggers, before
/// the write returns, with the same ordering guarantees. A change made on another thread
/// sends the run to the main actor. Runs sent there are coalesced: the body runs once, with
/// the latest values, and a run that a change on the main thread made first leaves nothing to
/// do. Called from anywhere else, the first run is sent to the main actor too, so it has not
/// necessarily happened when this function returns (and it never happens if the subscription
/// is released before the main actor gets to it).
///
/// Ripple recognises the main actor by its thread, the main thread. On Apple platforms it asks
/// the system; elsewhere it learns which thread that is from the first main-actor code it sees
/// (a call from main-actor code, a `MainActorComputed` created, a run sent to the main actor);
/// until then, runs are sent to the main actor.
///
/// A body that writes a value it reads runs again after its own write. Ripple counts such
/// runs on the reaction: more than 10 000 in a row (a run triggered by any other write starts
/// the count again) stop the program with a "runaway reaction" message naming it. Only writes
/// the body makes itself are counted: a write it hands to a `Task` or a thread it starts is
/// not attributed to it (that would take a task-local on every run), so a loop through one is
/// not detected.
///
/// - Parameters:
///   - isolation: The caller's isolation, filled in by the compiler: when it is the main
///     actor, the first run happens at once.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - body: The reaction, isolated to the main actor.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observeOnMainActor(
    isolation: isolated (any Actor)? = #isolation,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @MainActor () -> Void
) -> Subscription {
    // Called from main-actor code, the first run happens now (see `_ReactionNode.runRequested`).
    _ = isolation
    return _startReaction(
        _mainActorReaction(origin: _Origin(name: nil, fileID: file, line: line), body: _mainActorReactionBody(body)))
}

/// `body` as the body of a `_mainActorReaction`, which runs only on the main thread (at once
/// when it is triggered there, else after a hop to the main actor). Debug builds check it, as
/// `MainActor.assumeIsolated` does; optimized builds call `body` as it is, as
/// `MainActorComputed`'s derivations are called: the check cost about 1 050 instructions a run
/// on Linux, where it asks Dispatch for the current queue (`count-instructions.sh --store
/// mainCommit10`).
///
/// - Complexity: O(1).
func _mainActorReactionBody(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
    #if DEBUG
    return { MainActor.assumeIsolated { body() } }
    #else
    return _assumingMainActor(sendable: body)
    #endif
}

/// A reaction whose body runs on the main actor: at once when it is triggered on the main
/// thread, else sent to the main actor (see `_ReactionNode.runRequested`).
func _mainActorReaction(origin: _Origin, recordsWhy: Bool? = nil, body: @escaping @Sendable () -> Void)
    -> _ReactionNode
{
    _ReactionNode(
        origin: origin,
        schedule: { job in
            Task { @MainActor in job() }
        },
        runsOnMainActor: true,
        recordsWhy: recordsWhy,
        body: body
    )
}

/// Registers work to run before the current reaction's next run, and when it is cancelled;
/// inside a ``ReactionScope``'s `run { }`, when that scope is cancelled.
///
/// ```swift
/// observe {
///     let timer = startTimer(interval: interval.value)
///     onCleanup { timer.invalidate() }
/// }
/// ```
///
/// The cleanup registers on the innermost of:
/// - the ``ReactionScope`` whose ``ReactionScope/run(_:)`` is running (it runs when the scope
///   is cancelled or released, like ``ReactionScope/onCleanup(_:)``);
/// - the reaction whose body is running, or the handler (such as `onChange`'s) that is
///   running: it runs before the next run or call, and when it is cancelled.
///
/// Cleanups run the last registered first, like `defer`, after the reactions the owner
/// created are cancelled. They run untracked, and own nothing they create. On an owner that
/// is already cancelled, the cleanup runs at once.
///
/// Calling it anywhere else (outside a reaction, or inside a cleanup) is a programming error
/// and stops the program.
public func onCleanup(_ cleanup: @escaping @Sendable () -> Void) {
    let context = _ThreadContext.current
    if let owner = context.owner {
        if !owner._addCleanup(cleanup) { _runCleanupNow(cleanup) }
        return
    }
    // A handler runs without an owner (what it creates is not its own), but its cleanups
    // still belong to the reaction behind it.
    guard let reaction = context.reaction else {
        _rippleFailure(
            "onCleanup was called outside a reaction. Call it inside the body of observe { } or the run { } of a ReactionScope."
        )
    }
    if !reaction._addCleanup(cleanup) { _runCleanupNow(cleanup) }
}

private func _run<A: Actor>(_ job: @Sendable () -> Void, on actor: isolated A) {
    job()
}

/// Attaches a new reaction to the current owner and runs it for the first time.
func _startReaction(_ node: _ReactionNode) -> Subscription {
    let subscription = Subscription(reaction: node)
    let context = _ThreadContext.current
    if let owner = context.owner, !owner._adopt(subscription) {
        // The owner is being cancelled: the child never starts.
        node.cancel()
        return subscription
    }
    _graph.delivering(context) { node.run(context) }
    return subscription
}

/// ``observe(file:line:_:)`` with a name: traces and diagnostics name the reaction by it, and
/// it keeps what it needs to say why it runs (``whyDidThisRun()``, and
/// ``whyDidThisRun(named:)`` from outside it).
///
/// ```swift
/// let render = observe(named: "render") { tipView.isHidden = isTipHidden.value }
/// ```
///
/// - Parameters:
///   - name: The reaction's name.
///   - file: The file that creates it.
///   - line: The line that creates it.
///   - body: The reaction.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observe(
    named name: String,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable () -> Void
) -> Subscription {
    _startReaction(_ReactionNode(origin: _Origin(name: name, fileID: file, line: line), body: body))
}

/// ``observeOnMainActor(isolation:file:line:_:)`` with a name: traces and diagnostics name the
/// reaction by it, as for ``observe(named:file:line:_:)``.
///
/// ```swift
/// let badge = observeOnMainActor(named: "badge") { badgeLabel.text = "\(model.remaining.value)" }
/// ```
///
/// - Parameters:
///   - name: The reaction's name.
///   - isolation: The caller's isolation, filled in by the compiler: when it is the main
///     actor, the first run happens at once.
///   - file: The file that creates it.
///   - line: The line that creates it.
///   - body: The reaction, isolated to the main actor.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observeOnMainActor(
    named name: String,
    isolation: isolated (any Actor)? = #isolation,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @MainActor () -> Void
) -> Subscription {
    _ = isolation
    return _startReaction(
        _mainActorReaction(origin: _Origin(name: name, fileID: file, line: line), body: _mainActorReactionBody(body)))
}
