import Ripple

/// A store for main-actor code: a container of one state value, changed only by commits, read by
/// subscribers, derived values and fine-grained readers, all on the main actor.
///
/// In an app target that is main-actor isolated by default (Xcode 26's new targets:
/// `.defaultIsolation(MainActor.self)` with `InferIsolatedConformances`), this is the store to
/// use. Its state and activity types need not be `Sendable`, and their `Equatable`
/// conformances may be isolated to the main actor, as a plain `struct State: Equatable`'s is
/// there. Subclass it, or use it through a typealias; neither needs an annotation:
///
/// ```swift
/// struct TodoState: Equatable { var todos: [Todo] = []; var draft = "" }
/// enum TodoActivity { case added(String) }
///
/// final class TodoStore: MainActorStore<TodoState, TodoActivity> {
///     func add(_ title: String) {
///         commit("add") { $0.todos.append(Todo(title: title)) }
///         send(.added(title))
///     }
/// }
///
/// typealias DraftStore = MainActorStore<TodoState, Never>
/// extension DraftStore {
///     func type(_ text: String) { commit { $0.draft = text } }
/// }
///
/// let store = TodoStore(initialState: TodoState())
/// let subscription = store.sinkState { changes in
///     changes.ifChanged(\.todos) { todos in tableView.reload(todos) }
/// }
/// let count = store.derived { $0.todos.count }      // a MainActorComputed
/// ```
///
/// For code that is not on the main actor, use ``Store``, which may be used from any thread and
/// needs `Sendable` types whose conformances are not isolated (`nonisolated struct State:
/// Equatable, Sendable` in a main-actor module). Swift cannot express one generic type that
/// accepts both: a type parameter that is `Sendable` refuses an isolated conformance ("main
/// actor-isolated conformance of 'TodoState' to 'Equatable' cannot satisfy conformance
/// requirement for a 'Sendable' type parameter"), and one that is not cannot be used from
/// other threads.
///
/// A main-actor store is made of the same core nodes as a ``Store``: its state is one `Stored`
/// value, its key paths and derived values are `MainActorComputed` values, its subscribers
/// are main-actor reactions. So every reader sees a consistent state and runs once per commit.
///
/// **Commits** (`commit(_:file:line:_:)`) are atomic: they run on the main actor, one at
/// a time, and each is delivered to the subscribers before the next one starts, except a commit
/// made inside a subscriber (or any reaction): it is applied at once (it returns its result,
/// and the next commit sees it) and delivered after the current delivery, to everyone, in
/// order.
///
/// **Lifetime.** Subscriptions, derived values and tasks do not keep the store alive. When the
/// store is released, its subscriptions end and its tasks are cancelled; derived values keep
/// their last value.
@MainActor
open class MainActorStore<State: Equatable, Activity> {
    @usableFromInline let _core: _MainActorStoreCore<State>
    let _activities = Event<_MainActorOnly<Activity>>()
    /// The core's subscriptions, reachable from `deinit`, which may run on any thread.
    nonisolated let _endings: _StoreEndings
    /// The core's plain subscribers, whose dispatching reaction ends from `deinit`.
    nonisolated let _sinks: _StoreSinks
    /// The tasks the store owns (``task(priority:_:)``), cancelled from `deinit`.
    nonisolated let _tasks = _StoreTasks()

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - initialState: The state before any commit. It must be a value type: a class's
    ///     changes could not be told apart from its identity.
    ///   - name: The store's name in traces and diagnostics; the type's name by default.
    ///
    /// - Precondition: `State` is not a class.
    public init(initialState: State, name: String? = nil) {
        let name = name ?? String(describing: Self.self)
        // `fatalError`, not `precondition`: optimized builds drop a precondition's message.
        if State.self is AnyObject.Type {
            fatalError(
                "RippleStore: \(name)'s state type \(State.self) is a class. A store's state must be a value type (a struct or an enum): a store publishes a new value on every commit and tells changes apart by comparing the old value with the new one, which a shared instance cannot do."
            )
        }
        _core = _MainActorStoreCore(initialState: initialState, name: name)
        _endings = _core.endings
        _sinks = _core.sinks
    }

    deinit {
        _sinks.end()
        _endings.end()
        _tasks.cancelAll()
    }

    /// The store's name in traces and diagnostics.
    public var name: String { _core.name }

    /// The state, read one key path at a time: `store.state.count` inside a
    /// `MainActorComputed`, an `observeOnMainActor` reaction or a SwiftUI body tracks `count`
    /// only.
    ///
    /// ```swift
    /// let title = MainActorComputed { "\(store.state.name) (\(store.state.count))" }
    /// ```
    public var state: MainActorTrackedState<State> {
        MainActorTrackedState(core: _core)
    }

    /// The whole published state. Reading it in a reader tracks every commit; prefer
    /// ``state``'s key paths there. Inside a subscriber, a commit made by that subscriber is
    /// seen here once it is delivered.
    ///
    /// - Complexity: O(1).
    public var currentState: State {
        _core.node.value.state
    }

    /// The number of commits that changed the state so far (0 for the initial state). Reading
    /// it in a reader tracks every commit.
    public var version: UInt64 {
        _core.node.value.version
    }

    /// Changes the state with `mutation`, atomically, and delivers the result to every
    /// subscriber; returns what `mutation` returned.
    ///
    /// `mutation` runs once, on the latest state. If it throws, the state is left as it was
    /// and the error is rethrown. If the state it leaves is equal to the one it got, nothing is
    /// published or delivered.
    ///
    /// ```swift
    /// final class AppStore: MainActorStore<AppState, Never> {
    ///     func rename(_ name: String) throws {
    ///         try commit("rename") { state in
    ///             guard !name.isEmpty else { throw RenameError.empty }
    ///             state.name = name
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The commit's name, for tracers and subscribers (``Changes/transaction``).
    ///   - file: The file that commits, named in traces and diagnostics.
    ///   - line: The line that commits.
    ///   - mutation: Changes the state in place. It must not commit to this store.
    /// - Returns: What `mutation` returned.
    /// - Complexity: One comparison of the state, plus the delivery to the readers that depend
    ///   on what changed.
    @discardableResult
    public func commit<Result, Failure: Error>(
        _ name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutation: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try _core.commit(Transaction(name: name, file: file, line: line)) { (state, _) throws(Failure) -> Result in
            try mutation(&state)
        }
    }

    /// Changes the state with `mutation`, which may also fill in the commit's ``Transaction``
    /// (its name and typed metadata); otherwise like the commit whose mutation takes only the
    /// state.
    ///
    /// - Parameters:
    ///   - name: The commit's name.
    ///   - file: The file that commits.
    ///   - line: The line that commits.
    ///   - mutation: Changes the state and the transaction in place.
    /// - Returns: What `mutation` returned.
    @discardableResult
    public func commit<Result, Failure: Error>(
        _ name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutation: (inout State, inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try _core.commit(Transaction(name: name, file: file, line: line), mutation)
    }
}
