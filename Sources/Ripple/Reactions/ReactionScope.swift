/// A group of reactions that are cancelled together.
///
/// Reactions (and scopes) created inside ``run(_:)`` belong to the scope; cancelling or
/// releasing the scope cancels them all. Reactions created inside another reaction's body
/// belong to that reaction in the same way.
///
/// ```swift
/// let scope = ReactionScope()
/// scope.run {
///     _ = observe { render(title.value) }
///     _ = observe { render(subtitle.value) }
///     onCleanup { print("scope cancelled") }   // registers on the scope
/// }
/// scope.onCleanup { connection.close() }      // the same, from outside `run`
/// scope.cancel()   // both reactions stop, then both cleanups run
/// ```
///
/// **Teardown order.** ``cancel()`` tears down in the order of Swift's `defer`, like a
/// reaction does before each re-run: first the reactions and scopes it holds, the last
/// created first (each with its own teardown, depth first), then its cleanups, the last
/// registered first. The teardown is untracked and owns nothing it creates, even when a
/// reaction's body cancels the scope.
public final class ReactionScope: Sendable, _Owner {
    private let state = _State()

    private final class _State: @unchecked Sendable {
        var children: [Subscription] = []
        var cleanups: [@Sendable () -> Void] = []
        var isCancelled = false
    }

    /// Creates an empty scope. If it is created inside a reaction or another scope's
    /// ``run(_:)``, it is cancelled with that owner.
    public init() {
        let context = _ThreadContext.current
        if let owner = context.owner {
            let link = Subscription { [weak self] in self?.cancel() }
            if !owner._adopt(link) { cancel() }
        }
    }

    deinit {
        cancel()
    }

    /// Runs `body`; reactions it creates belong to this scope, and ``onCleanup(_:)`` called
    /// directly inside it (not inside a reaction's body) registers on this scope.
    ///
    /// It may be called any number of times; what each call creates is added to the scope.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try _withOwner(self, body)
    }

    /// Registers `cleanup` to run when the scope is cancelled or released, after the scope's
    /// reactions are cancelled; cleanups run the last registered first.
    ///
    /// On a scope that is already cancelled, `cleanup` runs at once.
    ///
    /// ```swift
    /// let scope = ReactionScope()
    /// let socket = Socket.open()
    /// scope.onCleanup { socket.close() }
    /// ```
    public func onCleanup(_ cleanup: @escaping @Sendable () -> Void) {
        if !_addCleanup(cleanup) { _runCleanupNow(cleanup) }
    }

    /// Cancels every reaction created in the scope, the last created first, then runs the
    /// scope's cleanups, the last registered first. Reactions created in the scope later are
    /// cancelled at once, and cleanups registered later run at once. Calling it again does
    /// nothing.
    ///
    /// A reaction of the scope that is running on another thread finishes its run first (see
    /// ``Subscription/cancel()``); `cancel()` does not wait for it.
    public func cancel() {
        var (children, cleanups, insideDerivation) = _graph.withLock { held in
            state.isCancelled = true
            let children = state.children
            let cleanups = state.cleanups
            state.children = []
            state.cleanups = []
            return (children, cleanups, _graph.state(held).evaluatingRef != nil)
        }
        _tearDown(children: &children, cleanups: &cleanups, insideDerivation: insideDerivation)
    }

    /// Whether ``cancel()`` has run (or the scope was created inside an owner that was
    /// already cancelled).
    public var isCancelled: Bool {
        _graph.withLock { state.isCancelled }
    }

    /// The number of reactions (and scopes) the scope holds.
    public var count: Int {
        _graph.withLock { state.children.count }
    }

    func _adopt(_ child: Subscription) -> Bool {
        _graph.withLock {
            if state.isCancelled { return false }
            state.children.append(child)
            return true
        }
    }

    func _addCleanup(_ cleanup: @escaping @Sendable () -> Void) -> Bool {
        _graph.withLock {
            if state.isCancelled { return false }
            state.cleanups.append(cleanup)
            return true
        }
    }
}

/// Runs `body` so that the reactions it creates belong to no reaction or scope: only their
/// ``Subscription`` keeps them running.
///
/// Reactions created inside a reaction's body are normally its children, cancelled before its
/// next run. An object that starts reactions for itself (and holds their subscriptions) uses
/// this so that being created inside someone's reaction does not cut its own reactions short.
///
/// ```swift
/// observe {
///     let cache = withoutOwner { Cache(source: source) }   // its reactions outlive this run
///     …
/// }
/// ```
public func withoutOwner<R>(_ body: () throws -> R) rethrows -> R {
    // The thread's context reached unretained and the owner set aside unretained, as
    // `_untrackedWithoutOwner` does: through `_withOwner`, the context and the owner cost two
    // retains and two releases, about 90 of a derived value's delivery's 1 170 instructions.
    try _ThreadContext.currentRef.with { context in try context.withoutOwner(body) }
}

/// Runs `body` untracked and owning nothing: how an upper module hands a value to a subscriber's
/// closure from inside its reaction. Not generic, so that a caller's unspecialized code calls
/// code compiled once (a generic call across modules looks up its result type's metadata).
package func _untrackedWithoutOwner(_ body: () -> Void) {
    // `withoutOwner { untracked(body) }`, with the thread's context found once, reached
    // without a retain, and the owner set aside unretained (copied, it cost two retains and
    // two releases a delivery, about 90 instructions).
    _ThreadContext.currentRef.with { context in
        context.withoutOwner { untracked(in: context, body) }
    }
}

/// Hands `subscription` to the owner of the reactions created now on this thread (a running
/// reaction or a ``ReactionScope`` in `run`), as a reaction created here would be: it is
/// cancelled with that owner. Returns false, having cancelled `subscription`, if the owner is
/// cancelled already (the caller then starts nothing); true when there is no owner.
package func _adoptByCurrentOwner(_ subscription: Subscription) -> Bool {
    guard let owner = _ThreadContext.current.owner, !owner._adopt(subscription) else { return true }
    subscription.cancel()
    return false
}

/// Runs `body` with `owner` as the owner of the reactions it creates.
func _withOwner<R>(_ owner: (any _Owner)?, _ body: () throws -> R) rethrows -> R {
    let context = _ThreadContext.current
    let saved = context.owner
    context.owner = owner
    defer { context.owner = saved }
    return try body()
}
