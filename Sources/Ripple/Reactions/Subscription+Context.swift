extension Subscription {
    /// Package: an object the module that made this subscription attached to it, for its own
    /// later use; `nil` if none was, and once the subscription is cancelled.
    ///
    /// RippleStore attaches the stores a sink comes from, for `storeWhileSourceActive()`: no
    /// table has to map subscriptions to what they come from. A reaction's subscription has one
    /// only if made by ``_observe(context:file:line:_:)``, whose reaction keeps it (one word
    /// more than a plain reaction's); a subscription made by ``init(_:)`` keeps it in its
    /// cancel action's spare word (`_CancelAction.context`, free with glibc's malloc). It is
    /// let go when that reaction or action is freed.
    ///
    /// - Complexity: O(1): one acquisition of the graph's lock.
    package var _context: AnyObject? {
        _graph.withLock { held in Self._context(of: held[target: self], held) }
    }

    /// Package: replaces ``_context`` with `new` if it is `expected` (the same object) and the
    /// subscription is not cancelled; returns whether it did. Atomic: of two calls that expect
    /// the same object, one succeeds. A reaction's subscription not made by
    /// ``_observe(context:file:line:_:)`` has no room for one: the call returns `false`.
    ///
    /// The replaced object is let go of after the lock is released.
    ///
    /// - Complexity: O(1): one acquisition of the graph's lock.
    @discardableResult
    package func _replaceContext(_ expected: AnyObject?, with new: AnyObject?) -> Bool {
        let (replaced, old) = _graph.withLock { held -> (Bool, AnyObject?) in
            guard let target = held[target: self], Self._context(of: target, held) === expected else {
                return (false, nil)
            }
            if let reaction = target as? _ContextReactionNode {
                defer { held[context: reaction] = new }
                return (true, held[context: reaction])
            }
            guard let action = target as? _CancelAction else { return (false, nil) }
            defer { held[context: action] = new }
            return (true, held[context: action])
        }
        _ = old  // released with the lock released
        return replaced
    }

    /// The context kept by `target`.
    private static func _context(of target: AnyObject?, _ held: borrowing _HeldLock) -> AnyObject? {
        if let reaction = target as? _ContextReactionNode { return held[context: reaction] }
        return (target as? _CancelAction).flatMap { held[context: $0] }
    }
}

/// Package: ``observe(file:line:_:)`` whose subscription carries `context` as its
/// ``Subscription/_context``, for the module that made it.
///
/// - Parameters:
///   - context: What ``Subscription/_context`` returns until replaced or cancelled.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - body: The reaction.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
/// - Complexity: As ``observe(file:line:_:)``; the reaction is one word larger.
package func _observe(
    context: AnyObject,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable () -> Void
) -> Subscription {
    let origin = _Origin(name: nil, fileID: file, line: line)
    return _startReaction(_ContextReactionNode(context: context, origin: origin, body: body))
}

/// A reaction named `name` in traces and diagnostics that, unlike ``observe(named:file:line:_:)``,
/// does not keep its sources' values at each run until ``whyDidThisRun()`` is called in it: an
/// upper module's own reaction, run on every commit (about 6 000 instructions a run).
///
/// - Parameters:
///   - name: The reaction's name in traces.
///   - file: The file that creates it.
///   - line: The line that creates it.
///   - body: The reaction.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
package func _observe(
    tracedAs name: String,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable () -> Void
) -> Subscription {
    let node = _ReactionNode(origin: _Origin(name: name, fileID: file, line: line), recordsWhy: false, body: body)
    return _startReaction(node)
}

/// ``_observe(tracedAs:file:line:_:)`` for a body isolated to the main actor, run as
/// ``observeOnMainActor(isolation:file:line:_:)`` runs one.
///
/// - Parameters:
///   - name: The reaction's name in traces.
///   - file: The file that creates it.
///   - line: The line that creates it.
///   - body: The reaction, isolated to the main actor.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
package func _observeOnMainActor(
    tracedAs name: String,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @MainActor () -> Void
) -> Subscription {
    let node = _mainActorReaction(
        origin: _Origin(name: name, fileID: file, line: line), recordsWhy: false, body: _mainActorReactionBody(body))
    return _startReaction(node)
}

/// A reaction whose subscription carries a module's context (``_observe(context:file:line:_:)``).
final class _ContextReactionNode: _ReactionNode, @unchecked Sendable {
    // @unchecked: `context` is guarded by the graph's lock.

    /// ``Subscription/_context``, reached through the lock's token, `held[context: reaction]`.
    fileprivate var _context: AnyObject?

    init(context: AnyObject, origin: _Origin, body: @escaping @Sendable () -> Void) {
        self._context = context
        super.init(origin: origin, body: body)
    }
}

extension _HeldLock {
    /// The context a reaction made by `_observe(context:)` keeps for its subscription.
    subscript(context reaction: _ContextReactionNode) -> AnyObject? {
        @inline(__always) get { reaction._context }
        @inline(__always) nonmutating set { reaction._context = newValue }
    }
}
