import Foundation

// The initialisers, one pair per stored format: property-list values as they are,
// `RawRepresentable` values as their raw value, other `Codable` values as JSON data.

extension Persisted where Value: PropertyListValue {
    /// Creates a value persisted under `key` as a property-list object.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not convert).
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a `Value` (data of an older format)
    ///     into one, or returns `nil` to report it as a ``PersistenceError``. Its result is the
    ///     value, and is saved. Every `Persisted` for the key uses the migration of the first.
    public convenience init(
        _ key: String,
        default defaultValue: Value,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key: key, default: defaultValue, store: store, coding: .propertyList(), migrate: migrate)
    }

    /// Creates a property-list property persisted under `key`: `@Persisted("volume") var volume = 0.5`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value while the store has none (or one that does not convert).
    ///   - key: The key in `store`.
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a `Value` into one, or returns `nil`
    ///     to report it. Its result is the value, and is saved.
    public convenience init(
        wrappedValue: Value,
        _ key: String,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key, default: wrappedValue, store: store, migrate: migrate)
    }
}

extension Persisted where Value: Codable {
    /// Creates a value persisted under `key` as JSON data.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not decode).
    ///   - store: Where the value is kept.
    ///   - migrate: Converts stored data that does not decode (a record of an older schema)
    ///     into a value, or returns `nil` to report it as a ``PersistenceError``. It receives
    ///     the stored object (JSON `Data`, unless something else was stored). Its result is
    ///     the value, and is saved. Every `Persisted` for the key uses the migration of the first.
    public convenience init(
        _ key: String,
        default defaultValue: Value,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key: key, default: defaultValue, store: store, coding: .json(key: key), migrate: migrate)
    }

    /// Creates a `Codable` property persisted under `key` as JSON data.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value while the store has none (or one that does not decode).
    ///   - key: The key in `store`.
    ///   - store: Where the value is kept.
    ///   - migrate: Converts stored data that does not decode into a value.
    public convenience init(
        wrappedValue: Value,
        _ key: String,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key, default: wrappedValue, store: store, migrate: migrate)
    }
}

extension Persisted {
    /// Creates an optional value persisted under `key` as JSON data, `nil` while the store has
    /// none: `@Persisted("token") var token: String?`, with no default to spell out.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - store: Where the value is kept.
    public convenience init<Wrapped: Codable & Sendable>(_ key: String, store: any KeyValueStore = .userDefaults)
    where Value == Wrapped? {
        self.init(key: key, default: nil, store: store, coding: .json(key: key), migrate: nil)
    }
}

extension Persisted where Value: RawRepresentable, Value.RawValue: PropertyListValue {
    /// Creates a value persisted under `key` as its raw value, like `@AppStorage`:
    /// `Persisted("theme", default: Theme.light)` stores `"light"`.
    ///
    /// A stored raw value that matches no value of the type is reported as a
    /// ``PersistenceError``.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not convert).
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a raw value of `Value` into a value,
    ///     or returns `nil` to report it. Its result is the value, and is saved.
    public convenience init(
        _ key: String,
        default defaultValue: Value,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key: key, default: defaultValue, store: store, coding: .rawValue(), migrate: migrate)
    }

    /// Creates a property persisted under `key` as its raw value: `@Persisted("theme") var theme = Theme.light`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value while the store has none (or one that does not convert).
    ///   - key: The key in `store`.
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a raw value of `Value` into a value.
    public convenience init(
        wrappedValue: Value,
        _ key: String,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key, default: wrappedValue, store: store, migrate: migrate)
    }
}

extension Persisted where Value: RawRepresentable & Codable, Value.RawValue: PropertyListValue {
    /// Creates a value persisted under `key` as its raw value; chosen over JSON for an enum
    /// that is both `RawRepresentable` and `Codable`, like `@AppStorage`.
    ///
    /// - Parameters:
    ///   - key: The key in `store`.
    ///   - defaultValue: The value while the store has none (or one that does not convert).
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a raw value of `Value` into a value,
    ///     or returns `nil` to report it. Its result is the value, and is saved.
    public convenience init(
        _ key: String,
        default defaultValue: Value,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key: key, default: defaultValue, store: store, coding: .rawValue(), migrate: migrate)
    }

    /// Creates a property persisted under `key` as its raw value, for an enum that is also
    /// `Codable`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value while the store has none (or one that does not convert).
    ///   - key: The key in `store`.
    ///   - store: Where the value is kept.
    ///   - migrate: Converts a stored object that is not a raw value of `Value` into a value.
    public convenience init(
        wrappedValue: Value,
        _ key: String,
        store: any KeyValueStore = .userDefaults,
        migrate: (@Sendable (_ stored: Any) -> Value?)? = nil
    ) {
        self.init(key, default: wrappedValue, store: store, migrate: migrate)
    }
}
