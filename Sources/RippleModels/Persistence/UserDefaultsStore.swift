import Foundation
import Ripple

/// A ``KeyValueStore`` backed by `UserDefaults`, on every platform (swift-corelibs-foundation
/// provides `UserDefaults` on Linux).
///
/// Saves run on a background queue, coalesced (``KeyValueStore/scheduleSave(_:)``). On
/// Linux, where `UserDefaults` only writes to disk when asked, the store calls
/// `synchronize()` after each round of saves and on ``Persisted/flush()``, so a saved value
/// survives the process without the app calling it. When that write fails (the file cannot be
/// written), each key saved since the last successful write is reported
/// (``PersistenceError/Kind-swift.enum/notSaved``, through ``KeyValueStore/reportWriteFailure(_:)``),
/// after a log line, and reported again at each failed write until one succeeds.
///
/// Two stores are the same storage, and share ``Persisted`` values, when they wrap the same
/// `UserDefaults` object: create one `UserDefaults(suiteName:)` per suite and keep it.
///
/// `UserDefaults` is thread-safe, but Foundation does not mark it `Sendable` on every
/// platform; this wrapper is the one place Ripple vouches for it.
public struct UserDefaultsStore: KeyValueStore, @unchecked Sendable {
    /// The defaults database values are kept in.
    public let defaults: UserDefaults
    private let onDecodingFailure: (@Sendable (PersistenceError) -> Void)?

    /// Keeps values in `defaults`.
    ///
    /// - Parameters:
    ///   - defaults: The defaults database.
    ///   - onDecodingFailure: Receives the stored values of this store that a ``Persisted``
    ///     cannot read; `nil` passes them to the process-wide ``PersistenceError/handler``.
    public init(_ defaults: UserDefaults, onDecodingFailure: (@Sendable (PersistenceError) -> Void)? = nil) {
        self.defaults = defaults
        self.onDecodingFailure = onDecodingFailure
    }

    /// The property-list object stored for `key`, or `nil`.
    public func object(forKey key: String) -> Any? {
        defaults.object(forKey: key)
    }

    /// Stores a property-list object for `key`; `nil` removes it.
    public func set(_ value: Any?, forKey key: String) {
        defaults.set(value, forKey: key)
        #if !canImport(Darwin)
        _UnwrittenKeys.shared.note(key, of: defaults)
        #endif
    }

    /// The `UserDefaults` object.
    public var identity: ObjectIdentifier { ObjectIdentifier(defaults) }

    /// The object the next process reads for `object`. On Linux, swift-corelibs-foundation
    /// writes the defaults as an XML property list, which keeps a date to the whole second and
    /// writes `-0.0` as `0`: the object after a round trip through that format. On Apple
    /// platforms, `object` (the defaults are a binary property list, which keeps both).
    ///
    /// - Complexity: O(*n*) in the size of `object` on Linux (one encoding and decoding, once
    ///   per save); O(1) on Apple platforms.
    public func storedForm(of object: Any) -> Any {
        #if canImport(Darwin)
        return object
        #else
        guard
            let data = try? PropertyListSerialization.data(fromPropertyList: ["v": object], format: .xml, options: 0),
            let read = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any],
            let value = read["v"]
        else { return object }
        return value
        #endif
    }

    /// Writes the defaults to disk where `UserDefaults` does not do it by itself (Linux); does
    /// nothing on Apple platforms, where it does.
    /// Reports each key saved since the last successful write when this one fails (see
    /// ``UserDefaultsStore``).
    public func synchronize() {
        #if !canImport(Darwin)
        let written = defaults.synchronize()
        for key in _UnwrittenKeys.shared.take(of: defaults, written: written) {
            let failure = PersistenceError(
                key: key, storedType: "", expectedType: "", reason: "UserDefaults could not write its file",
                kind: .notSaved)
            _PersistenceErrorHandler.log(failure)
            reportWriteFailure(failure)
        }
        #endif
    }

    /// Passes `error` to the handler given at creation, else to ``PersistenceError/handler``.
    public func reportDecodingFailure(_ error: PersistenceError) {
        if let onDecodingFailure {
            onDecodingFailure(error)
        } else {
            PersistenceError.handler?(error)
        }
    }
}

extension KeyValueStore where Self == UserDefaultsStore {
    /// The standard user defaults.
    public static var userDefaults: UserDefaultsStore { UserDefaultsStore(.standard) }
}

#if !canImport(Darwin)
/// The keys saved to each `UserDefaults` since its last successful write to disk (Linux, where
/// `UserDefaultsStore.synchronize()` writes): shared by every store that wraps the same object.
final class _UnwrittenKeys: @unchecked Sendable {
    // @unchecked: `keys` is only touched under `lock`.
    static let shared = _UnwrittenKeys()
    private let lock = _Lock()
    private var keys: [ObjectIdentifier: Set<String>] = [:]

    /// Notes a save of `key` to `defaults`.
    func note(_ key: String, of defaults: UserDefaults) {
        lock.withLock { _ = keys[ObjectIdentifier(defaults), default: []].insert(key) }
    }

    /// After a write of `defaults` to disk: forgets its keys when it `written`, else returns them,
    /// sorted (they stay noted until a write succeeds).
    func take(of defaults: UserDefaults, written: Bool) -> [String] {
        lock.withLock {
            let id = ObjectIdentifier(defaults)
            if written {
                keys[id] = nil
                return []
            }
            return (keys[id] ?? []).sorted()
        }
    }
}
#endif
