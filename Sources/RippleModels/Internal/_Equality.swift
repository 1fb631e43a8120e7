/// `==` for `Value` when it is `Equatable`, found at run time; `nil` otherwise.
///
/// The property types take any value; those whose values are `Equatable` get the usual
/// cut-off (an equal value notifies nobody) without a second set of initialisers.
package func _equality<Value>(for _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard Value.self is any Equatable.Type else { return nil }
    return { lhs, rhs in (lhs as! any Equatable)._isEqual(to: rhs) }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func _isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}

/// Whether two values of unknown type are known to be equal: both of one `Equatable` type
/// and `==`. Values that cannot be compared are not known to be equal.
func _isKnownEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs._isEqual(to: rhs)
}
