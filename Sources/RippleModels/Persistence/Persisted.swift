import Foundation
import Ripple

/// A reactive value kept in a key-value store (the standard `UserDefaults` by default).
///
/// The stored value is loaded lazily, the first time it is read, and written back each time
/// it changes, on the writing thread. Reads are tracked like a `Stored`. Property-list types
/// are stored as they are; other `Codable` types as JSON data. A stored object that cannot be
/// decoded is ignored in favour of the default; a value that cannot be encoded stops the
/// program with a message naming the key.
///
/// The first read loads from the store while holding the graph's lock (it is part of a
/// derivation), so the store must be quick and must not call back into Ripple; `UserDefaults`
/// is.
///
/// ```swift
/// let theme = Persisted("theme", default: "light")
/// let observer = theme.didChange { apply($0) }
/// theme.value = "dark"                 // saved under "theme"
/// ```
///
/// It is also a property wrapper, for models:
///
/// ```swift
/// final class Settings: ObservableModel, @unchecked Sendable {
///     @Persisted("volume") var volume = 0.5
/// }
/// ```
///
/// Changes made to the store behind Ripple's back are not observed.
///
/// - Complexity: A change costs one store write (and a JSON encoding for `Codable` values)
///   on the writing thread.
@propertyWrapper
public final class Persisted<Value: Sendable>: Readable, ObservableValue, Sendable {
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// The value written in this process, once there is one.
    private let written: Stored<Value?>
    private let current: Computed<Value>
    /// Saves each value written, in order, on the writing thread: the store always ends with
    /// the latest committed value, whichever thread wrote it.
    private let saving: Subscription

    init(
        key: String,
        default defaultValue: Value,
        store: any KeyValueStore,
        encode: @escaping @Sendable (Value) -> Any?,
        decode: @escaping @Sendable (Any) -> Value?
    ) {
        isEqual = _equality(for: Value.self)
        let written = Stored<Value?>(nil, equals: nil)
        self.written = written
        current = Computed(name: "Persisted '\(key)'", equals: isEqual) {
            if let value = written.value { return value }
            return store.object(forKey: key).flatMap(decode) ?? defaultValue
        }
        saving = withoutOwner { observe {
            guard let value = written.value else { return }
            untracked { store.set(encode(value), forKey: key) }
        } }
    }

    /// Creates a value persisted under `key` as a property-list object.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not decode).
    ///   - store: Where the value is kept.
    public convenience init(_ key: String, default defaultValue: Value, store: any KeyValueStore = .userDefaults)
    where Value: PropertyListValue {
        self.init(key: key, default: defaultValue, store: store, encode: { $0 }, decode: { Value._fromPropertyList($0) })
    }

    /// Creates a value persisted under `key` as JSON data.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not decode).
    ///   - store: Where the value is kept.
    public convenience init(_ key: String, default defaultValue: Value, store: any KeyValueStore = .userDefaults)
    where Value: Codable {
        self.init(
            key: key, default: defaultValue, store: store,
            encode: { value in
                do {
                    return try _PersistedCoding.encoder().encode(value)
                } catch {
                    preconditionFailure("Ripple: Persisted '\(key)' cannot encode \(value) as JSON: \(error)")
                }
            },
            decode: { ($0 as? Data).flatMap { try? _PersistedCoding.decoder().decode(Value.self, from: $0) } }
        )
    }

    /// Creates a property-list property persisted under `key`: `@Persisted("volume") var volume = 0.5`.
    public convenience init(wrappedValue: Value, _ key: String, store: any KeyValueStore = .userDefaults)
    where Value: PropertyListValue {
        self.init(key, default: wrappedValue, store: store)
    }

    /// Creates a `Codable` property persisted under `key` as JSON data.
    public convenience init(wrappedValue: Value, _ key: String, store: any KeyValueStore = .userDefaults)
    where Value: Codable {
        self.init(key, default: wrappedValue, store: store)
    }

    /// The current value: the last one written, else the stored one, else the default.
    /// Assigning a different value saves it.
    ///
    /// Inside a reaction the write is queued after the current round, like a `Stored` write.
    public var value: Value {
        get { current.value }
        set {
            let isEqual = isEqual, written = written, current = current
            writeInOrder {
                if let isEqual, isEqual(untracked { current.value }, newValue) { return }
                written.value = newValue
            }
        }
    }

    /// The value, as a property wrapper.
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// The persisted value itself, to observe or bind: `$volume.didChange { }`.
    public var projectedValue: Persisted<Value> { self }

    /// A two-way ``Binding`` to the value.
    public var binding: Binding<Value> {
        Binding(get: { self.value }, set: { self.value = $0 })
    }
}

/// The JSON coders of ``Persisted``: non-finite floating-point values are written as strings
/// (`"inf"`, `"-inf"`, `"nan"`) instead of failing.
enum _PersistedCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
