/// A home for a store's operations outside the store, optionally limited to a part of its
/// state (Verge's `Dispatcher` and `ScopedDispatcher`).
///
/// Subclass it and give it methods that commit. A scoped dispatcher's commits change, and its
/// subscribers see, only the state at its scope:
///
/// ```swift
/// final class ProfileActions: Dispatcher<AppState, AppActivity, Profile>, @unchecked Sendable {
///     func rename(_ name: String) { commit { $0.name = name } }   // $0 is the Profile
/// }
///
/// let profile = ProfileActions(target: store, scope: \.profile)
/// profile.rename("Ada")
/// ```
///
/// A dispatcher holds its store. Its commits are the store's commits: atomic, ordered,
/// delivered to every subscriber of the store.
open class Dispatcher<State: Equatable & Sendable, Activity: Sendable, Scope: Equatable & Sendable>: @unchecked Sendable
{
    /// The store the dispatcher commits to.
    public let store: Store<State, Activity>
    private let scope: _WritableKeyPath<State, Scope>

    /// Creates a dispatcher for the part of `store`'s state at `scope`.
    ///
    /// - Parameters:
    ///   - store: The store to commit to.
    ///   - scope: The part of the state the dispatcher changes and sees.
    public init(target store: Store<State, Activity>, scope: any WritableKeyPath<State, Scope> & Sendable) {
        self.store = store
        self.scope = _WritableKeyPath(keyPath: scope)
    }

    /// The scoped state, read one key path at a time (see ``TrackedState``).
    public var state: TrackedState<Scope> {
        TrackedState(source: _ScopedSource(core: store._core, scope: _KeyPath(keyPath: scope.keyPath)))
    }

    /// The whole scoped state. Reading it in a reader tracks every commit.
    public var currentState: Scope {
        store.currentState[keyPath: scope.keyPath]
    }

    /// Changes the scoped state in one commit of the store: atomic, ordered and delivered to
    /// every subscriber of the store, like ``Store``'s `commit`.
    ///
    /// - Parameters:
    ///   - name: The commit's name.
    ///   - file: The file that commits.
    ///   - line: The line that commits.
    ///   - mutation: Changes the scoped state in place.
    /// - Returns: What `mutation` returned.
    @discardableResult
    public func commit<Result, Failure: Error>(
        _ name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutation: (inout Scope) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let scope = scope
        return try store._core.commit(Transaction(name: name, file: file, line: line)) {
            (state, _) throws(Failure) -> Result in
            try mutation(&state[keyPath: scope.keyPath])
        }
    }

    /// Sends `activity` to the store's activity subscribers.
    public func send(_ activity: Activity) {
        store.send(activity)
    }

    /// Calls `receive` with the scoped state now (unless `dropsFirst`), then after every commit
    /// that changed it, on the committing thread, in commit order.
    ///
    /// Commits that change only other parts of the store's state do not reach it.
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current state.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called with each change of the scoped state.
    /// - Returns: A subscription that stops the delivery when cancelled or released, or when the
    ///   store is released.
    public func sinkState(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @Sendable (Changes<Scope>) -> Void
    ) -> Subscription {
        let core = store._core
        let scoped = core.slice(scope.keyPath)
        let previous = _ReactionBox<(scope: Scope, version: UInt64)?>(nil)
        return core.own(
            observe(file: file, line: line) { [node = core.node] in
                let current = scoped.value
                let snapshot = untracked { node.value }
                let old = previous.value
                previous.value = (current, snapshot.version)
                if old == nil, dropsFirst { return }
                let changes = Changes(
                    previous: old?.scope, current: current, version: snapshot.version, transaction: snapshot.transaction
                )
                withoutOwner { untracked { receive(changes) } }
            })
    }
}

extension Dispatcher where Scope == State {
    /// Creates a dispatcher for the whole state of `store`.
    ///
    /// ```swift
    /// final class AppActions: Dispatcher<AppState, AppActivity, AppState>, @unchecked Sendable {
    ///     func increment() { commit { $0.count += 1 } }
    /// }
    /// let actions = AppActions(target: store)
    /// ```
    public convenience init(target store: Store<State, Activity>) {
        self.init(target: store, scope: \State.self)
    }
}
