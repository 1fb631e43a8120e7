/// A step every commit of a store goes through after its mutation: it can inspect the commit
/// and rewrite its state or its transaction.
///
/// Middleware runs inside the commit, in the order given to the store, after the mutation and
/// after the state's derived fields (``DerivedFields``) are brought up to date; the state it
/// leaves is what the commit publishes. Like the mutation, it must not commit to the same
/// store. Give it to the store's initializer, or add it later with ``Store/add(middleware:)``
/// (or ``MainActorStore/add(middleware:)``): it then runs after the steps given before, for
/// every commit made after the call.
///
/// ```swift
/// let clamp = StoreMiddleware<AppState>("clamp count") { state, _, _ in
///     state.count = min(max(state.count, 0), 99)
/// }
/// let store = AppStore(initialState: AppState(), middleware: [clamp])
/// ```
public struct StoreMiddleware<State>: Sendable {
    /// The name, for diagnostics.
    public let name: String
    private let body: @Sendable (inout State, State, inout Transaction) -> Void

    /// Creates a middleware step.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics.
    ///   - body: The step. It receives the state the commit made (to rewrite), the state
    ///     before the commit, and the commit's transaction (to rewrite).
    public init(
        _ name: String,
        _ body: @escaping @Sendable (_ state: inout State, _ previous: State, _ transaction: inout Transaction) -> Void
    ) {
        self.name = name
        self.body = body
    }

    func apply(_ state: inout State, _ previous: State, _ transaction: inout Transaction) {
        body(&state, previous, &transaction)
    }
}

/// Runs a store's middleware `steps` on `state`, a commit on top of `previous`: each step in
/// order. With `derivesFieldsAgain` (a ``DerivedFields`` state), a step that changed the state
/// may have changed an input of a derived field, so `deriveFields` brings them up to date again,
/// with the transaction the steps left: no one sees them stale. Both stores' commits run it.
func _applyMiddleware<State: Equatable>(
    _ steps: [StoreMiddleware<State>],
    to state: inout State,
    previous: State,
    _ transaction: inout Transaction,
    derivesFieldsAgain: Bool,
    _ deriveFields: (inout State, Transaction) -> Void
) {
    guard derivesFieldsAgain, !steps.isEmpty else {
        for step in steps { step.apply(&state, previous, &transaction) }
        return
    }
    let beforeMiddleware = state
    for step in steps { step.apply(&state, previous, &transaction) }
    if !(state == beforeMiddleware) { deriveFields(&state, transaction) }
}
