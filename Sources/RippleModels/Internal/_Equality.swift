import Ripple

/// `==` for `Value` when it is `Equatable`, found at run time; `nil` otherwise.
///
/// The property types take any value; those whose values are `Equatable` get the usual
/// cut-off (an equal value notifies nobody) without a second set of initialisers.
package func _equality<Value>(for _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard Value.self is any Equatable.Type else { return nil }
    return { lhs, rhs in _isKnownEqual(lhs, rhs) }
}
