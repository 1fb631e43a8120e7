/// A state with fields computed from its other fields, which every commit brings up to date
/// before anyone sees the new state (Verge's `StateType.reduce`).
///
/// Keep derived data in the state itself when many readers need it and it must be consistent
/// with the rest of the state in every delivery. Recompute only what the commit changed:
///
/// ```swift
/// struct TodoState: Equatable, DerivedFields {
///     var todos: [Todo] = []
///     private(set) var remaining = 0
///
///     static func updateDerivedFields(of state: inout TodoState, after changes: Changes<TodoState>) {
///         changes.ifChanged(\.todos) { todos in
///             state.remaining = todos.filter { !$0.isDone }.count
///         }
///     }
/// }
/// ```
///
/// The store calls it once at creation, with `changes` going from no state (`previous` is
/// `nil`, so every `ifChanged` runs) to the initial state, so that the initial state is
/// published, read and delivered with its derived fields up to date; then inside every commit,
/// after the mutation and before middleware, with `changes` going from the state before the
/// commit to the mutated one; and again after middleware that changed the state, with
/// `changes` going from the state before the commit to the one middleware left, so that a
/// middleware step that rewrites an input of a derived field does not publish it stale. Like a
/// mutation, it must not commit to the store.
public protocol DerivedFields: Sendable {
    /// Brings the derived fields of `state` up to date after `changes`.
    static func updateDerivedFields(of state: inout Self, after changes: Changes<Self>)
}

/// The store's hook for a state that conforms to ``DerivedFields`` (`nil` otherwise).
func _derivedFieldsUpdate<State>(for type: State.Type) -> ((inout State, Changes<State>) -> Void)? {
    guard let conforming = type as? any DerivedFields.Type else { return nil }
    return _hook(conforming, type)
}

/// A store's initial state with its derived fields up to date (`derivesFields`, `nil` for a
/// state without them): every field reads as changed, from no previous state.
func _initialState<State>(
    _ state: State, derivingFieldsWith derivesFields: ((inout State, Changes<State>) -> Void)?
) -> State {
    guard let derivesFields else { return state }
    var initial = state
    derivesFields(
        &initial,
        Changes(previous: nil, current: state, version: 0, transaction: Transaction(name: "initial state")))
    return initial
}

private func _hook<Conforming: DerivedFields, State>(
    _: Conforming.Type,
    _: State.Type
) -> (inout State, Changes<State>) -> Void {
    { state, changes in
        // `Conforming` is `State` (the cast above found `State` conforming): the rebinding and
        // the casts only restate the type, and the state is updated in place, uncopied.
        let typedChanges = changes.map { $0 as! Conforming }
        withUnsafeMutablePointer(to: &state) { pointer in
            pointer.withMemoryRebound(to: Conforming.self, capacity: 1) { typed in
                Conforming.updateDerivedFields(of: &typed.pointee, after: typedChanges)
            }
        }
    }
}
