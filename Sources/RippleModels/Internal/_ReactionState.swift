/// State owned by one reaction's body.
///
/// A reaction never runs concurrently with itself, so its body may keep state here
/// without a lock. Nothing else may touch it.
package final class _ReactionState<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
