import Foundation

/// Where ``Persisted`` values are kept: `UserDefaults` (through ``UserDefaultsStore``), or
/// a store of your own, such as an in-memory one for tests.
///
/// ```swift
/// let theme = Persisted("theme", default: "light", store: .userDefaults)
/// ```
public protocol KeyValueStore: Sendable {
    /// The property-list object stored for `key`, or `nil`.
    func object(forKey key: String) -> Any?
    /// Stores a property-list object for `key`; `nil` removes it.
    func set(_ value: Any?, forKey key: String)
}
