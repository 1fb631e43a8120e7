/// Whether two values of unknown type are known to be equal: both of one `Equatable` type
/// and `==`. Values that cannot be compared are not known to be equal. (The graph's kept
/// private reads, and RippleModels' property cut-offs and handlers.)
package func _isKnownEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs._isEqual(to: rhs)
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func _isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
