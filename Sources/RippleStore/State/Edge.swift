import Ripple

/// A value in the state compared by version, not by value: for large values (a big array, an
/// image, a value that is not `Equatable`), whose comparison on every commit would cost too
/// much (Verge's `Edge`).
///
/// ```swift
/// struct LibraryState: Equatable, Sendable {
///     var query = ""
///     @Edge var books: [Book] = []      // compared in O(1)
/// }
///
/// store.commit { $0.books.append(book) }          // moves the version
/// let count = store.derived(from: \.$books) { $0.wrapped.count }
/// ```
///
/// Every mutation gives the edge a new ``version``, drawn from one counter for the whole
/// process, and two edges are equal exactly when their versions are. So a copy is equal to its
/// original until one of them is mutated, edges made apart are never equal, and copies mutated
/// apart never compare equal. The wrapped value is never compared: a mutation that leaves an
/// equal value (`edge.wrapped = edge.wrapped`) still counts as a change. Mutate through
/// ``wrappedValue`` (the property wrapper), ``wrapped``, ``modify(_:)`` or a writable member
/// (`edge.title = "…"`); reads never move the version.
///
/// Verge also compares the wrapped values of two edges whose versions differ when they are
/// `Equatable`; an `Edge` here never does (compare `a.wrapped == b.wrapped` yourself when you
/// want that).
///
/// - Complexity: Comparing two edges is O(1). Each mutation takes a process-wide lock once, to
///   draw its version.
@propertyWrapper
@dynamicMemberLookup
public struct Edge<Value: Sendable>: Equatable, Sendable {
    private var storage: Value
    /// This value's version: it changes on every mutation, and no other edge has it.
    public private(set) var version: UInt64

    /// Wraps `wrappedValue`, with a version no other edge has.
    ///
    /// - Parameter wrappedValue: The value.
    public init(wrappedValue: Value) {
        storage = wrappedValue
        version = _EdgeVersions.shared.next()
    }

    /// The value. Setting or mutating it moves the ``version``.
    public var wrappedValue: Value {
        get { storage }
        _modify {
            version = _EdgeVersions.shared.next()
            yield &storage
        }
    }

    /// The value (Verge's spelling). Setting or mutating it moves the ``version``.
    public var wrapped: Value {
        get { storage }
        _modify {
            version = _EdgeVersions.shared.next()
            yield &storage
        }
    }

    /// The edge itself (`state.$books`), for key paths that compare by version:
    /// `store.derived(from: \.$books) { … }` runs only when `books` was mutated.
    public var projectedValue: Edge<Value> {
        get { self }
        set { self = newValue }
    }

    /// Mutates the value in place with `body`, moving the ``version`` once, and returns what
    /// `body` returned.
    ///
    /// ```swift
    /// let count = state.$books.modify { books in books.append(book); return books.count }
    /// ```
    ///
    /// - Parameter body: Changes the value.
    /// - Returns: What `body` returned.
    public mutating func modify<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        version = _EdgeVersions.shared.next()
        return try body(&storage)
    }

    /// A member of the value.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        storage[keyPath: keyPath]
    }

    /// A writable member of the value; writing it moves the ``version``.
    public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
        get { storage[keyPath: keyPath] }
        _modify {
            version = _EdgeVersions.shared.next()
            yield &storage[keyPath: keyPath]
        }
    }

    /// Whether `lhs` and `rhs` have the same version: one is an unmutated copy of the other.
    ///
    /// - Complexity: O(1): the values are not compared.
    public static func == (lhs: Edge, rhs: Edge) -> Bool {
        lhs.version == rhs.version
    }
}

/// The process-wide source of ``Edge`` versions.
final class _EdgeVersions: @unchecked Sendable {
    // @unchecked: `last` is guarded by `lock`.
    static let shared = _EdgeVersions()
    private let lock = _Lock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last &+= 1
            return last
        }
    }
}
