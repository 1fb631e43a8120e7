import Foundation

/// A ``KeyValueStore`` backed by `UserDefaults`, on every platform (swift-corelibs-foundation
/// provides `UserDefaults` on Linux).
///
/// `UserDefaults` is thread-safe, but Foundation does not mark it `Sendable` on every
/// platform; this wrapper is the one place Ripple vouches for it.
public struct UserDefaultsStore: KeyValueStore, @unchecked Sendable {
    /// The defaults database values are kept in.
    public let defaults: UserDefaults

    /// Keeps values in `defaults`.
    public init(_ defaults: UserDefaults) {
        self.defaults = defaults
    }

    /// The property-list object stored for `key`, or `nil`.
    public func object(forKey key: String) -> Any? {
        defaults.object(forKey: key)
    }

    /// Stores a property-list object for `key`; `nil` removes it.
    public func set(_ value: Any?, forKey key: String) {
        defaults.set(value, forKey: key)
    }
}

extension KeyValueStore where Self == UserDefaultsStore {
    /// The standard user defaults.
    public static var userDefaults: UserDefaultsStore { UserDefaultsStore(.standard) }
}
