import Foundation
import Ripple

/// A reactive value kept in a key-value store (the standard `UserDefaults` by default).
///
/// ```swift
/// let theme = Persisted("theme", default: "light")
/// let observer = theme.didChange { apply($0) }
/// theme.value = "dark"                 // "dark" at once in memory; saved under "theme" soon after
/// ```
///
/// It is also a property wrapper, for models:
///
/// ```swift
/// final class Settings: SendableModel, @unchecked Sendable {
///     @Persisted("volume") var volume = 0.5
///     @Persisted("theme") var theme = Theme.light     // a RawRepresentable enum: its raw value is stored
/// }
/// ```
///
/// **Formats.** Property-list types (``PropertyListValue``) are stored as they are,
/// `RawRepresentable` types as their raw value (like `@AppStorage`), other `Codable` types as
/// JSON data.
///
/// **Reading.** The stored value is loaded the first time it is read, by the reading thread,
/// without holding the graph's lock, so other threads keep reading and writing while a large
/// value decodes. (If that first read is inside a `Computed`'s derivation, the reading thread
/// already holds the graph and the load runs there; read it once outside first when the value
/// is large.) Reads are tracked like a `Stored`.
///
/// **Writing.** A write changes the value in memory at once, like a `Stored` write, and
/// schedules a save through the store (``KeyValueStore/scheduleSave(_:)``). Saves are
/// coalesced: however many writes are made before it runs, one save encodes the latest value,
/// on the store's schedule (the default: a background queue), never under the graph's lock.
/// ``flush()`` saves at once; releasing the last `Persisted` for a key saves what is pending;
/// saves still queued at `exit` run before the process ends. A committed value always reaches
/// the store, even if the `Persisted` is released in the batch or reaction that wrote it.
///
/// **Bad stored data.** A stored value that does not decode, or does not convert exactly
/// (an `Int` key holding 3.7), is never converted silently: it is logged and reported as a
/// ``PersistenceError``, the value reads as its default, and the stored data is left as it is
/// until the app writes a value. That write does not lose it: before saving, the stored data
/// is copied, exactly as stored, to the recovery key the error names
/// (``PersistenceError/recoveryKey``, `"<key>.unreadable"`). Pass `migrate:` to convert
/// stored data of an older format: its result is the value, and is saved.
///
/// **Shared keys.** Every `Persisted` for one key of one store is one value: a write through
/// one is seen by the others, and `+= 1` through each adds up. Creating two with different
/// types (or formats) for one key stops the program with a message naming the key and both
/// types. While the store holds no value, each reads as its own default.
///
/// Changes made to the store behind Ripple's back are not observed.
///
/// - Complexity: Reading is O(1) after the first read, which costs one store read and one
///   decoding. A write costs a `Stored` write and O(1) to schedule the save; a save costs
///   one encoding and one store write, however many writes it covers.
@propertyWrapper
public final class Persisted<Value: Sendable>: Readable, ObservableValue, Sendable {
    private let handle: _PersistedHandle<Value>
    private let defaultValue: Value

    init(
        key: String,
        default defaultValue: Value,
        store: any KeyValueStore,
        coding: _PersistedCoding<Value>,
        migrate: (@Sendable (Any) -> Value?)?
    ) {
        handle = _PersistedHandle(key: key, store: store, coding: coding, migrate: migrate)
        self.defaultValue = defaultValue
    }

    /// The current value: the last one written (through any `Persisted` for this key), else
    /// the stored one, else the default. Assigning saves it, unless the store already holds
    /// exactly this property-list or raw value (`-0.0` is not `0.0`); a `Codable` value is
    /// saved on every write, as its `==` may ignore what its encoding keeps. Every write
    /// notifies: `didUpdate` hears an equal value too, as for `Stored`.
    ///
    /// Inside a reaction the write is queued after the current round, like a `Stored` write.
    public var value: Value {
        get { handle.entry.read() ?? defaultValue }
        set {
            let handle = handle
            writeInOrder {
                let entry = handle.entry
                // Loads first, if needed: a stored value that does not decode is reported
                // before this write replaces it.
                _ = entry.peek()
                // Every write counts, as for `Stored` and model properties: `didUpdate` hears a
                // write of an equal value, `didChange` does not.
                entry.written.value = newValue
            }
        }
        // A compound assignment (`volume.value += 1`) is one atomic read-modify-write: other
        // writers of the key wait until it ends (readers never wait).
        _modify {
            let access = _beginExclusiveAccess()
            defer { _endExclusiveAccess(access) }
            var copy = value
            yield &copy
            value = copy
        }
    }

    /// Saves the latest value now, on the calling thread, if it has not been saved yet, and
    /// asks the store to make it durable (``KeyValueStore/synchronize()``).
    ///
    /// You rarely need it: saves run on the store's schedule, and releasing the last
    /// `Persisted` for a key saves too. Call it before the process may be killed, or in a test.
    ///
    /// When it returns, every value saved so far that the store could not keep exactly has
    /// been reported (``PersistenceError/Kind-swift.enum/notKeptExactly``). Do not call it from
    /// the handler that receives those reports.
    ///
    /// - Complexity: One encoding and one store write if a value is pending, plus the check
    ///   that the store keeps it (``KeyValueStore/storedForm(of:)``) and the store's
    ///   synchronization.
    public func flush() {
        handle.entry.flush()
    }

    /// The value, as a property wrapper.
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
        _modify { yield &value }
    }

    /// The persisted value itself, to observe, bind or flush: `$volume.didChange { }`.
    public var projectedValue: Persisted<Value> { self }

    /// A two-way ``ValueBinding`` to the value.
    public var binding: ValueBinding<Value> {
        ValueBinding(get: { self.value }, set: { self.value = $0 })
    }
}
