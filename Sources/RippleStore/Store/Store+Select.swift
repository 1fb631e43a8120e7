import Ripple

extension Store {
    /// The result of `selector` on the state, as a derived value: `selector` runs once on each
    /// commit that changes the state, and the value's readers run only when its result changed
    /// (Verge's `derived(.map { … })`).
    ///
    /// A closure selector is the cheapest way to derive many small values from one large state,
    /// such as a row model per visible row: a commit calls each selector once and compares its
    /// result with the last, with no graph node to mark or check per selector, and writes only
    /// the values that changed, in the same batch as the state: a reaction that reads both runs
    /// once per commit and sees them agree. (A derived value made while a commit is being
    /// published, inside a `batch` or a delivery, starts from that commit's state, before the
    /// store's readers see it.)
    ///
    /// ```swift
    /// let rows = (0..<store.state.items.count).map { index in
    ///     store.select { state in state.items[index].title }
    /// }
    /// ```
    ///
    /// Unlike `derived(_:)` and `derived(from:transform:)`, whose closures run only when an
    /// input they declared changed and only while something reads them, `selector`
    /// runs on every commit that changes the state, as long as the derived value lives. Keep it
    /// cheap and free of side effects. It runs with no lock held, one commit at a time: first
    /// on the thread that makes the derived value, on the latest state, holding other threads'
    /// commits back as a commit's mutation does (so it must not wait for another thread that
    /// commits to this store); then on the thread that publishes each commit (the committing
    /// one, or the thread that owned the store's gate when the commit was made). What it reads
    /// is not tracked. With a ``StoreLogger``, each commit's log names the selectors whose
    /// value it changed, by where they were made.
    ///
    /// - Parameters:
    ///   - file: The file that makes the value, named in diagnostics.
    ///   - line: The line that makes the value, named in diagnostics.
    ///   - selector: Selects the value from the state.
    /// - Returns: A derived value that keeps the selector while it lives, and not the store.
    /// - Complexity: O(1) to create. Each commit that changes the state runs each live
    ///   selector once and compares its result: O(n) for n selectors, about one closure call
    ///   and one comparison each.
    @inlinable
    public func select<Value: Equatable & Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ selector: @escaping @Sendable (State) -> Value
    ) -> Derived<Value> {
        // Inlinable: the selector's call and comparison are compiled for the concrete types,
        // and the store's publish calls them through one closure per selector.
        // Made on the latest state while holding the store's gate, as a commit's mutation is:
        // every commit up to that state has been published (or is queued, on the thread that
        // owns the gate, and will skip it), and none can be until the selection is listed, so
        // no publish misses it.
        let (node, lease) = _core.withGate { state, version in
            let first = selector(state)
            // Drops a write of an older version (see `_Versioned`).
            let node = Stored(
                _Versioned(first, version: version), equals: _Versioned.isNotNewer, file: file, line: line)
            let selection = _Selection.comparing(from: first, at: version, selector) { value, version in
                node.value = _Versioned(value, version: version)
            }
            return (node, _core.selections.add(selection, madeAt: version))
        }
        // With a logger, a commit's log names the selectors it woke, by where they were made.
        let noteWake = _core.selectionWake(file: file, line: line)
        return Derived(
            Computed(describedBy: _core.selectionName, file: file, line: line) {
                withExtendedLifetime(lease) {
                    let selected = node.value
                    noteWake?(selected.version)
                    return selected.value
                }
            },
            sources: _sourceStores)
    }
}

extension _StoreCore {
    /// The store's closure selectors, made with their publish hook the first time.
    @usableFromInline
    var selections: _Selections<State> {
        registry(
            \_Selections<State>.self,
            make: { _Selections<State>() },
            hook: { selections in
                { previous, current in
                    selections.publish(current.state, version: current.version, after: previous.version)
                }
            },
            idleWhen: { selections in { selections.isEmpty } })
    }

    /// Runs `body` with the latest state and its version while holding the store's gate, as a
    /// commit's mutation runs, and commits nothing. No other commit can be made or published
    /// meanwhile, and every commit up to that state has been published (its publish hooks
    /// have run, in a batch that may not have ended yet), or, on the thread that owns the gate
    /// (a subscriber that committed), is queued to be published after the round, with the
    /// hooks there are then.
    @usableFromInline
    func withGate<Result>(_ body: (State, UInt64) -> Result) -> Result {
        let open = openCommit(Transaction(name: "select"))
        let base = base(of: open)
        let result = body(base.state, base.version)
        abandon(open)
        return result
    }

    /// What a closure selector's derived value calls with the version it read, for the
    /// store's logger: notes the selector, named `file:line`, among what that commit woke.
    /// `nil` without a logger.
    @usableFromInline
    func selectionWake(file: StaticString, line: UInt) -> (@Sendable (UInt64) -> Void)? {
        guard hasLogger else { return nil }
        let wake = StoreLog.Wake.derived("\(file):\(line)")
        return { [weak self] version in self?.noteWake(wake, version) }
    }

    /// Names a closure selector after its store, when a trace or a diagnostic reads the name.
    @usableFromInline
    var selectionName: @Sendable () -> String {
        { [name] in "\(name).select" }
    }
}
