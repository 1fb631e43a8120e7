import Foundation
import Ripple

/// A stored value that a ``Persisted`` could not read (it does not decode, or does not
/// convert exactly, to the persisted type), or a value it saved that its store could not keep
/// exactly (``Kind-swift.enum/notKeptExactly``).
///
/// A `Persisted` never converts a stored value silently: an `Int` key holding 3.7 or 1e300,
/// a `Bool` key holding 2, a `Float` key holding a double beyond `Float`'s range, or a `Codable`
/// record written by an older schema is a failure. On a failure, the `Persisted`
///
/// - logs a line on standard error naming the key, the stored type and the expected type;
/// - reports this error to its store (``KeyValueStore/reportDecodingFailure(_:)``), whose
///   default passes it to the process-wide ``handler``;
/// - reads as its default, and leaves the stored data as it is until the app writes a value
///   or a migration passed to the `Persisted` converts the stored data;
/// - before the first value written replaces the stored data, copies that data, exactly as
///   stored, to the ``recoveryKey`` this error names (`"<key>.unreadable"`, numbered when
///   that key holds an earlier recovery), so that nothing a user saved is lost because the
///   type changed. Read it back with the store (`UserDefaults.standard.data(forKey:)`), or with
///   a `Persisted` of the old type under the recovery key.
///
/// A saved value the store cannot keep exactly (a `Date` with a fraction of a second, or
/// `-0.0`, in `UserDefaults` on Linux, whose XML file keeps neither) is saved in the closest
/// form the store keeps, and reported the same way (``KeyValueStore/reportWriteFailure(_:)``):
/// the value in memory stays exact for this process, and the next process reads the stored
/// form. To keep such a date exactly there, persist it in another form, such as a `Double`
/// of seconds (`timeIntervalSinceReferenceDate`).
///
/// A saved value its store could not write to disk (``Kind-swift.enum/notSaved``: on Linux,
/// `UserDefaults` failed to write its file) is reported the same way, once per key saved since
/// the store's last successful write, each time a write fails: the value in memory is current,
/// and the next process may read an older one.
///
/// ```swift
/// PersistenceError.handler = { error in
///     crashReporter.record(error.description)
/// }
/// ```
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// Which way a value failed: read from the store, or kept by it.
    public enum Kind: Sendable, Equatable {
        /// The stored value does not decode, or does not convert exactly, to the persisted
        /// type: the `Persisted` reads as its default.
        case unreadable
        /// A value the `Persisted` saved reads back from the store as a different value: the
        /// store keeps the closest form it can, which the next process reads.
        case notKeptExactly
        /// A value the `Persisted` saved could not be written to disk by its store: the next
        /// process may read an older value. ``PersistenceError/storedType`` and
        /// ``PersistenceError/expectedType`` are empty.
        case notSaved
    }

    /// Which way the value failed.
    public let kind: Kind
    /// The key whose stored value could not be read.
    public let key: String
    /// What the store holds, for instance `Double (3.7)` or `Data (120 bytes)`. Numbers are
    /// shown with their value; strings and data are not.
    public let storedType: String
    /// The type the `Persisted` reads, for instance `Int`.
    public let expectedType: String
    /// Why the stored value does not convert: `it does not convert exactly`, `missing key 'fontSize'`…
    public let reason: String
    /// For a stored value that does not read (``Kind-swift.enum/unreadable``): the key it is
    /// copied to, exactly as stored, before the first value written replaces it. `nil` for
    /// ``Kind-swift.enum/notKeptExactly``.
    public let recoveryKey: String?

    /// Creates an error for `key`.
    ///
    /// - Parameters:
    ///   - key: The key whose stored value could not be read.
    ///   - storedType: What the store holds.
    ///   - expectedType: The type the value was read as.
    ///   - reason: Why the stored value does not convert.
    ///   - kind: Which way the value failed; a read by default.
    ///   - recoveryKey: Where the unreadable stored value is kept once a write replaces it.
    public init(
        key: String,
        storedType: String,
        expectedType: String,
        reason: String,
        kind: Kind = .unreadable,
        recoveryKey: String? = nil
    ) {
        self.kind = kind
        self.recoveryKey = recoveryKey
        self.key = key
        self.storedType = storedType
        self.expectedType = expectedType
        self.reason = reason
    }

    /// One line naming the key, the stored type and the expected type, and saying what
    /// happens next.
    public var description: String {
        switch kind {
        case .unreadable:
            "Persisted '\(key)' cannot read its stored value: the store holds \(storedType), expected \(expectedType) "
                + "(\(reason)). It reads as its default; the stored value is left as it is"
                + (recoveryKey.map { ", and copied to '\($0)' before a value written replaces it." } ?? ".")
        case .notKeptExactly:
            "Persisted '\(key)' was saved, but its store cannot keep the \(expectedType) exactly (\(reason)): "
                + "the store keeps \(storedType), which the next process reads. The value in memory is exact."
        case .notSaved:
            "Persisted '\(key)' was saved, but its store could not write it to disk (\(reason)): "
                + "the next process may read an older value. The value in memory is current."
        }
    }

    /// The handler every store passes failures to unless it handles them itself
    /// (``KeyValueStore/reportDecodingFailure(_:)``, ``KeyValueStore/reportWriteFailure(_:)``);
    /// `nil`, the default, reports nothing beyond the log line.
    ///
    /// It is called after the log line: for a read, on the thread that first reads the value,
    /// which may be inside a `Computed`'s derivation; for a save, on the thread that runs it.
    /// So the handler must not read or write Ripple values, nor call ``Persisted/flush()``;
    /// hop to another queue or actor for anything more than recording.
    ///
    /// - Complexity: O(1); setting and reading it take a lock.
    public static var handler: (@Sendable (PersistenceError) -> Void)? {
        get { _PersistenceErrorHandler.shared.handler }
        set { _PersistenceErrorHandler.shared.handler = newValue }
    }
}

/// The storage of ``PersistenceError/handler``, behind a lock.
final class _PersistenceErrorHandler: @unchecked Sendable {
    static let shared = _PersistenceErrorHandler()
    private let lock = _Lock()
    private var stored: (@Sendable (PersistenceError) -> Void)?

    var handler: (@Sendable (PersistenceError) -> Void)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Writes the log line for `error` on standard error.
    static func log(_ error: PersistenceError) {
        FileHandle.standardError.write(Data("Ripple: \(error.description)\n".utf8))
    }
}
