import Ripple

extension MainActorStore {
    /// The result of `selector` on the state, as a main-actor derived value: `selector` runs
    /// once on each commit that changes the state, and the value's readers run only when its
    /// result changed (Verge's `derived(.map { … })`).
    ///
    /// As ``Store/select(file:line:_:)``: a commit calls each selector once and compares its
    /// result with the last, with no graph node to mark or check per selector, and writes only
    /// the values that changed, in the same batch as the state.
    ///
    /// ```swift
    /// let title = store.select { state in state.items.first?.title ?? "" }
    /// ```
    ///
    /// `selector` runs on the main actor, on every commit that changes the state, as long as
    /// the derived value lives: keep it cheap and free of side effects. What it reads is not
    /// tracked.
    ///
    /// - Parameters:
    ///   - file: The file that makes the value, named in diagnostics.
    ///   - line: The line that makes the value, named in diagnostics.
    ///   - selector: Selects the value from the state.
    /// - Returns: A main-actor computed value that keeps the selector while it lives, and not
    ///   the store.
    /// - Complexity: O(1) to create. Each commit that changes the state runs each live
    ///   selector once and compares its result: O(n) for n selectors.
    @inlinable
    public func select<Value: Equatable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ selector: @escaping @MainActor (State) -> Value
    ) -> MainActorComputed<Value> {
        // The store publishes on the main actor only, so the selections' update runs there:
        // the selector is called as a plain function, without a check per call (as a
        // main-actor store's subscribers are, see `_MainActorStoreCore.onMainActor`).
        let select = _MainActorStoreCore<State>.withoutIsolation(selector)
        // Made on the published state: the store publishes on the main actor only, so every
        // publish from now on runs it (a commit made inside a delivery is published after
        // the round).
        let (state, version) = _core.selectionStart()
        let first = select(state)
        // No equality: it is written only when the result changed, by the main actor's
        // publishes, in version order.
        let node = Stored(first, equals: nil, file: file, line: line)
        let selection = _Selection.comparing(from: first, at: version, select) { value, _ in node.value = value }
        let lease = _core.selections.add(selection, madeAt: version)
        return MainActorComputed(describedBy: _core.selectionName, file: file, line: line) {
            withExtendedLifetime(lease) { node.value }
        }
    }
}

extension _MainActorStoreCore {
    /// `selector` as a plain function, for a store that calls it on the main actor only.
    /// Debug builds check each call.
    @usableFromInline
    nonisolated static func withoutIsolation<Value>(_ selector: @escaping @MainActor (State) -> Value) -> (State) ->
        Value
    {
        // The same closure, its isolation dropped from its type: a main-actor function and a
        // plain one have one representation.
        let unchecked = unsafeBitCast(selector, to: ((State) -> Value).self)
        #if DEBUG
        return { state in
            MainActor.preconditionIsolated("RippleStore: a main-actor store's selector was called off the main actor")
            return unchecked(state)
        }
        #else
        return unchecked
        #endif
    }

    /// The store's closure selectors, made the first time: from then on, every commit is
    /// published in a batch that runs them.
    @usableFromInline
    var selections: _Selections<State> {
        if let selectionList { return selectionList }
        let made = _Selections<State>()
        selectionList = made
        return made
    }

    /// The state a selector made now starts from: the published one (a commit made inside a
    /// delivery is published after the round, with the selectors).
    @usableFromInline
    func selectionStart() -> (state: State, version: UInt64) {
        let snapshot = untracked { node.value }
        return (snapshot.state, snapshot.version)
    }

    /// Names a closure selector after its store, when a trace or a diagnostic reads the name.
    @usableFromInline
    var selectionName: @Sendable () -> String {
        { [name] in "\(name).select" }
    }
}
