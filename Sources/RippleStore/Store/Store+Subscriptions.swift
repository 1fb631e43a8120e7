extension Store {
    /// Calls `receive` with the current state (unless `dropsFirst`), then once per commit that
    /// changed it, on the committing thread, in commit order.
    ///
    /// ```swift
    /// let subscription = store.sinkState { changes in
    ///     changes.ifChanged(\.name) { name in label.text = name }
    /// }
    /// ```
    ///
    /// Commits from many threads reach it one at a time, in the order they were applied. A
    /// commit made inside `receive` (or any subscriber) is delivered to every subscriber after
    /// the current delivery, never nested inside it. Subscribers are called in the order they
    /// subscribed; one made while another thread commits sees every commit after its first
    /// delivery. Made inside a reaction's body, the subscription also ends when that reaction
    /// runs again or ends, as a reaction made there would.
    ///
    /// - Complexity: A commit calls each subscriber once: O(*n*) closure calls for *n*
    ///   subscribers, through one reaction. Cancelling is O(*n*).
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current state.
    ///   - file: The file that subscribes, named in logs and diagnostics.
    ///   - line: The line that subscribes.
    ///   - receive: Called with each change. What it reads is not tracked.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when
    ///   the store is released. It does not keep the store alive.
    @inlinable
    public func sinkState(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @Sendable (Changes<State>) -> Void
    ) -> Subscription {
        // Inlinable: the `Changes` is made in code compiled for the concrete state, where the
        // store's generic code would look up its type's metadata on every delivery.
        _sink(dropsFirst: dropsFirst, file: file, line: line) { previous, current in
            receive(Changes<State>(_deliveredFrom: previous, to: current))
        }
    }

    /// Calls `receive` on the main actor with the current state (unless `dropsFirst`), then
    /// after commits: at once when the commit is made on the main actor, otherwise on the main
    /// actor's next turn.
    ///
    /// Commits made while a delivery is on its way to the main actor are seen together: the
    /// subscriber gets the latest state, and ``Changes/previous`` is the state it saw last, so
    /// ``Changes/ifChanged(_:perform:)-90bxw`` is exact. Called from the main actor, the first delivery
    /// happens before this returns.
    ///
    /// ```swift
    /// subscription = store.sinkStateOnMainActor { changes in
    ///     changes.ifChanged(\.title) { title in self.navigationItem.title = title }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current state.
    ///   - isolation: The caller's actor, filled in by the compiler: from the main actor, the
    ///     first delivery happens before this returns.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called on the main actor with each change.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when
    ///   the store is released.
    public func sinkStateOnMainActor(
        dropsFirst: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @MainActor (Changes<State>) -> Void
    ) -> Subscription {
        let deliver = _core.sinkBody(dropsFirst: dropsFirst, label: "\(file):\(line) (main actor)")
        // Called by the reaction's body, which runs on the main actor: without a check of the
        // actor per delivery (`MainActor.assumeIsolated` cost about 1 000 instructions each on
        // Linux). Debug builds check each call.
        let receive = _MainActorStoreCore<State>.onMainActor(receive)
        // A plain closure, not a main-actor one: the compiler put a check of the executor at
        // the start of a main-actor closure made here (about 360 instructions per delivery,
        // with the main actor's retain and release);
        // the reaction runs it on the main actor, and `receive` checks in debug builds.
        let body: @Sendable () -> Void = { deliver { changes in receive(changes) } }
        return _core.own(observeOnMainActor(isolation: isolation, file: file, line: line, body))
    }

    /// Calls `receive` on `actor` with the current state (unless `dropsFirst`), then after
    /// commits. Commits made while a delivery is on its way are seen together, as in
    /// ``sinkStateOnMainActor(dropsFirst:isolation:file:line:_:)``.
    ///
    /// - Parameters:
    ///   - actor: The actor whose executor runs `receive`.
    ///   - dropsFirst: Skip the delivery of the current state.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called on `actor` with each change.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when
    ///   the store is released.
    public func sinkState<A: Actor>(
        on actor: A,
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @Sendable (isolated A, Changes<State>) -> Void
    ) -> Subscription {
        let deliver = _core.sinkBody(dropsFirst: dropsFirst, label: "\(file):\(line) (\(A.self))")
        return _core.own(
            observe(on: actor, file: file, line: line) { actor in
                deliver { changes in receive(actor, changes) }
            })
    }

    /// Calls `receive` with each change and a running value that `accumulate` keeps up to date
    /// from every change first (Verge's `scan`).
    ///
    /// ```swift
    /// let subscription = store.sinkState(scan: 0, { total, changes in
    ///     changes.ifChanged(\.count) { _ in total += 1 }
    /// }) { changes, countChanges in
    ///     print("count changed \(countChanges) times")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery (but not the accumulation) of the current state.
    ///   - initialValue: The running value before the first change.
    ///   - accumulate: Updates the running value with a change.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called with each change and the running value after it.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when
    ///   the store is released.
    public func sinkState<Accumulated>(
        dropsFirst: Bool = false,
        scan initialValue: Accumulated,
        _ accumulate: @escaping @Sendable (inout Accumulated, Changes<State>) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @Sendable (Changes<State>, Accumulated) -> Void
    ) -> Subscription {
        // Touched by the subscriber's deliveries only, which never overlap.
        let running = _ReactionBox(initialValue)
        let isFirst = _ReactionBox(true)
        return _sink(dropsFirst: false, file: file, line: line) { previous, current in
            let changes = Changes<State>(_deliveredFrom: previous, to: current)
            accumulate(&running.value, changes)
            let skip = dropsFirst && isFirst.value
            isFirst.value = false
            if !skip { receive(changes, running.value) }
        }
    }
}

extension Store {
    /// The store's plain subscriber (`_StoreCore._sink`), which
    /// knows its store for ``Ripple/Subscription/storeWhileSourceActive()``.
    @usableFromInline
    func _sink(
        dropsFirst: Bool,
        file: StaticString,
        line: UInt,
        _ deliver: @escaping @Sendable (_AnySnapshot?, _AnySnapshot) -> Void
    ) -> Subscription {
        let subscription = _core._sink(dropsFirst: dropsFirst, file: file, line: line, deliver)
        // Kept in a spare word of the subscription's cancel action, free.
        subscription._replaceContext(nil, with: _sourceStores)
        return subscription
    }

    /// Ties `subscription` to the store's life, for the modules above (RippleCombine's
    /// publishers): it is cancelled when the store is released, or when the returned
    /// subscription is cancelled or released; `finishing` runs then too (at once if the store
    /// is gone already). It may run more than once: it must be idempotent.
    package func _ownUntilReleased(_ subscription: Subscription, finishing: @escaping @Sendable () -> Void)
        -> Subscription
    {
        _core.own(subscription, also: finishing)
    }
}

extension _StoreCore {
    /// A plain subscriber, on the committing thread: handed the snapshot it saw last (`nil` on
    /// its first delivery) and the published one, once per commit, in subscription order.
    ///
    /// Delivered by the store's one dispatching reaction (``_StoreSinks``), not by a reaction
    /// of its own. Made inside a reaction (or a ``ReactionScope``), it is cancelled with it, as
    /// a reaction made there would be.
    func _sink(
        dropsFirst: Bool,
        file: StaticString,
        line: UInt,
        _ deliver: @escaping @Sendable (_AnySnapshot?, _AnySnapshot) -> Void
    ) -> Subscription {
        let sink = _Sink(file: file, line: line, deliver: deliver)
        let subscription = own(Subscription { [sinks] in sinks.remove(sink) })
        guard _adoptByCurrentOwner(subscription) else { return subscription }
        ensureDispatcher()
        sinks.subscribe(
            sink, current: { untracked { node.stored.value } }, dropsFirst: dropsFirst,
            // The label is formatted only for a logger.
            noteWake: hasLogger ? { [self] sink, version in noteWake(.subscriber(sink.label), version) } : nil)
        return subscription
    }

    /// Makes the reaction that delivers the plain subscribers, if the store has none yet: one
    /// run per published commit, calling each subscriber that has not seen it, in order.
    private func ensureDispatcher() {
        let logs = hasLogger
        sinks.ensureDispatcher {
            // Named so that traces say which store's subscribers a commit woke.
            _observe(tracedAs: "\(name) subscribers") { [sinks, stored = node.stored, weak self] in
                let snapshot = stored.value
                sinks.deliver(
                    snapshot, wake: logs ? { self?.noteWake(.subscriber($0.label), snapshot.version) } : nil)
            }
        }
    }

    /// A plain subscriber handed each change as a `Changes` (for the store's own streams).
    func sink(
        dropsFirst: Bool,
        file: StaticString,
        line: UInt,
        _ receive: @escaping @Sendable (Changes<State>) -> Void
    ) -> Subscription {
        _sink(dropsFirst: dropsFirst, file: file, line: line) { previous, current in
            receive(Changes<State>(_deliveredFrom: previous, to: current))
        }
    }

    /// The body of a subscriber's reaction, as ``sinkSnapshots(dropsFirst:label:)``, handing
    /// the change as a `Changes`.
    func sinkBody(dropsFirst: Bool, label: String) -> @Sendable (_ receive: (Changes<State>) -> Void) -> Void {
        let body = sinkSnapshots(dropsFirst: dropsFirst, label: label)
        return { receive in
            body { previous, current in receive(Changes<State>(_deliveredFrom: previous, to: current)) }
        }
    }

    /// The body of a subscriber's reaction: reads the published state (its one dependency) and
    /// hands the snapshot it saw last and the published one to the function it is given,
    /// untracked and owning nothing, once per version.
    ///
    /// The snapshots are handed as `_AnySnapshot`s (each a `_Snapshot<State>`): the caller casts
    /// them in code compiled for its state, where a cast here would look up the type's metadata.
    func sinkSnapshots(dropsFirst: Bool, label: String)
        -> @Sendable (_ deliver: (_AnySnapshot?, _AnySnapshot) -> Void) -> Void
    {
        let previous = _ReactionBox<_AnySnapshot?>(nil)
        // Without a logger, no wake to note (and no weak reference to load per delivery).
        let logs = logger != nil
        return { [stored = node.stored, weak self] deliver in
            let snapshot = stored.value
            let old = previous.value
            if let old, old.version >= snapshot.version { return }
            previous.value = snapshot
            if old == nil, dropsFirst { return }
            if logs, old != nil { self?.noteWake(.subscriber(label), snapshot.version) }
            _untrackedWithoutOwner { deliver(old, snapshot) }
        }
    }
}
