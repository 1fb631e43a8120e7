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
/// }
/// scope.cancel()   // both stop
/// ```
public final class ReactionScope: Sendable, _Owner {
    private let state = _State()

    private final class _State: @unchecked Sendable {
        var children: [Subscription] = []
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

    /// Runs `body`; reactions it creates belong to this scope.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try _withOwner(self, body)
    }

    /// Cancels every reaction created in the scope; later ones are cancelled at once.
    public func cancel() {
        let children = _graph.withLock {
            state.isCancelled = true
            let taken = state.children
            state.children = []
            return taken
        }
        for child in children { child.cancel() }
    }

    /// The number of reactions the scope holds.
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
    try _withOwner(nil, body)
}

/// Runs `body` with `owner` as the owner of the reactions it creates.
func _withOwner<R>(_ owner: (any _Owner)?, _ body: () throws -> R) rethrows -> R {
    let context = _ThreadContext.current
    let saved = context.owner
    context.owner = owner
    defer { context.owner = saved }
    return try body()
}
