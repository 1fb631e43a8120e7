extension MainActorComputed {
    /// Calls `handler` on the main actor with the old and the new value each time the value
    /// changes: ``Readable/onChange(file:line:_:)`` for a main-actor value.
    ///
    /// Unlike ``observeOnMainActor(isolation:file:line:_:)`` it does not run at once, and it
    /// tracks only this value: reads inside `handler` are not dependencies, and `handler` does
    /// not own what it creates.
    ///
    /// ```swift
    /// let log = model.remaining.onChange { old, new in print("\(old) → \(new) left") }
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - handler: Called on the main actor with the old and the new value after each change.
    /// - Returns: A ``Subscription`` that stops the handler when cancelled or released. It does
    ///   not keep this value alive.
    public func onChange(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ handler: @escaping @MainActor (_ old: Value, _ new: Value) -> Void
    ) -> Subscription {
        let previous = _MainActorLocal<Value?>(nil)
        return _observeSelf(file: file, line: line) { new in
            let old = previous.value
            previous.value = new
            if let old { _callHandler { handler(old, new) } }
        }
    }

    /// Calls `action` on the main actor once, the first time `predicate` holds for the value (at
    /// once if it already does), then stops: ``Readable/when(_:file:line:perform:)`` for a
    /// main-actor value.
    ///
    /// ```swift
    /// let done = model.remaining.when({ $0 == 0 }) { _ in showConfetti() }
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: The condition on the value, evaluated on the main actor.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - action: Called once, on the main actor, with the first value that satisfies
    ///     `predicate`.
    /// - Returns: A ``Subscription``; cancel it to give up waiting.
    public func when(
        _ predicate: @escaping @MainActor (Value) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line,
        perform action: @escaping @MainActor (Value) -> Void
    ) -> Subscription {
        let fired = _MainActorLocal(false)
        return _observeSelf(file: file, line: line) { value in
            guard !fired.value, predicate(value) else { return }
            fired.value = true
            _ThreadContext.current.reaction?.cancel()
            _callHandler { action(value) }
        }
    }

    /// What this value reads and what reads it, directly and transitively (see
    /// ``DependencySnapshot``), as for ``Computed``.
    ///
    /// - Complexity: O(*n*) in the nodes upstream and downstream, at most
    ///   ``DependencySnapshot/limit``.
    public var dependencies: DependencySnapshot { computed.dependencies }

    /// A main-actor reaction that reads this value (tracked) and hands it to `body`; it holds
    /// this value weakly and ends when it is released.
    func _observeSelf(file: StaticString, line: UInt, _ body: @escaping @MainActor (Value) -> Void) -> Subscription {
        observeOnMainActor(owner: self, isolation: MainActor.shared, file: file, line: line) { computed in
            body(computed.value)
        }
    }
}

/// State owned by one main-actor reaction's body: read and written only on the main actor, by
/// a reaction that never runs concurrently with itself.
@MainActor
final class _MainActorLocal<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
