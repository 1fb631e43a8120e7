import Foundation

/// Where ``Persisted`` values are kept: `UserDefaults` (through ``UserDefaultsStore``), or
/// a store of your own, such as an in-memory one for tests.
///
/// ```swift
/// let theme = Persisted("theme", default: "light", store: .userDefaults)
/// ```
///
/// A store reads and writes property-list objects, and decides when ``Persisted``'s saves
/// run (``scheduleSave(_:)``: by default, coalesced on a background queue). A store that is a
/// class is identified by the object; a store that is a value (a struct wrapping an object)
/// must say which object holds its values (``identity``), because every ``Persisted`` for one
/// key of one store shares one value.
///
/// Every requirement may be called from any thread.
public protocol KeyValueStore: Sendable {
    /// The property-list object stored for `key`, or `nil`.
    func object(forKey key: String) -> Any?

    /// Stores a property-list object for `key`; `nil` removes it.
    func set(_ value: Any?, forKey key: String)

    /// The object that holds the values. Two stores with the same identity are one storage:
    /// ``Persisted`` values for one key in them share one value.
    ///
    /// A class store gets `ObjectIdentifier(self)` by default; ``UserDefaultsStore`` uses its
    /// `UserDefaults` object.
    var identity: ObjectIdentifier { get }

    /// Runs `save`, which writes the latest value of one ``Persisted`` (it encodes the value
    /// and calls ``set(_:forKey:)``), when the store chooses.
    ///
    /// A ``Persisted`` schedules one save for any number of writes made before the save runs,
    /// so a store that saves later coalesces writes. `save` may run on any thread; running it
    /// twice, or after a newer one, is harmless. Until it runs, ``Persisted/flush()`` runs it
    /// at once, and so does releasing the last `Persisted` for the key.
    ///
    /// The default runs saves on a background queue, then calls ``synchronize()`` once per
    /// store; saves still queued when the process calls `exit` run before it ends. A store may
    /// run `save` at once (write-through), or keep it for a test to run.
    func scheduleSave(_ save: @escaping @Sendable () -> Void)

    /// Makes every value set so far durable, for instance by writing it to disk.
    ///
    /// Called after the background saves and by ``Persisted/flush()``. The default does
    /// nothing; ``UserDefaultsStore`` calls `UserDefaults.synchronize()` where that is needed
    /// for values to survive the process (Linux).
    func synchronize()

    /// Receives a stored value a ``Persisted`` could not read, after the log line.
    ///
    /// The default passes it to the process-wide ``PersistenceError/handler``. It is called on
    /// the thread that first reads the value, which may be inside a `Computed`'s derivation:
    /// it must not read or write Ripple values.
    func reportDecodingFailure(_ error: PersistenceError)

    /// The object a later process reads for `object` once this store has written it out.
    ///
    /// A ``Persisted`` decodes it after each save and compares the result with the value it
    /// saved: a value the store cannot keep exactly is reported
    /// (``PersistenceError/Kind-swift.enum/notKeptExactly``), never lost silently. The
    /// default returns `object`: the store keeps what it is given. ``UserDefaultsStore`` on
    /// Linux, which writes an XML property list, returns the object after a round trip
    /// through that format (its `<date>` keeps whole seconds, its `<real>` drops the sign of
    /// `-0.0`).
    func storedForm(of object: Any) -> Any

    /// Receives a value a ``Persisted`` saved that the store did not keep exactly (see
    /// ``storedForm(of:)``), after the log line.
    ///
    /// The default passes it to the process-wide ``PersistenceError/handler``. It is called on
    /// the thread that runs the save: a background queue by default, or the thread that calls
    /// ``Persisted/flush()``.
    func reportWriteFailure(_ error: PersistenceError)
}

extension KeyValueStore where Self: AnyObject {
    /// The store object itself.
    public var identity: ObjectIdentifier { ObjectIdentifier(self) }
}

extension KeyValueStore {
    /// Runs `save` on a background queue, with every other save scheduled by a store that
    /// uses this default, then calls ``synchronize()`` once per store.
    public func scheduleSave(_ save: @escaping @Sendable () -> Void) {
        _BackgroundSaves.shared.schedule(save, in: self)
    }

    /// Does nothing: the store's writes are durable once made.
    public func synchronize() {}

    /// Passes `error` to ``PersistenceError/handler``.
    public func reportDecodingFailure(_ error: PersistenceError) {
        PersistenceError.handler?(error)
    }

    /// Returns `object`: the store keeps what it is given.
    public func storedForm(of object: Any) -> Any { object }

    /// Passes `error` to ``PersistenceError/handler``.
    public func reportWriteFailure(_ error: PersistenceError) {
        PersistenceError.handler?(error)
    }
}
