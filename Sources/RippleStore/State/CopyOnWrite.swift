/// A state property stored in a shared box and copied only when changed while shared: for a
/// large value that many states share, and for recursive state (a struct cannot contain itself,
/// but it can contain a `@CopyOnWrite` of itself).
///
/// ```swift
/// struct Comment: Equatable, Sendable {
///     var text: String
///     @CopyOnWrite var reply: Comment?      // recursive: allowed through the box
/// }
///
/// struct DocumentState: Equatable, Sendable {
///     @CopyOnWrite var document = LargeDocument()   // copied once per commit that changes it
/// }
/// ```
///
/// Reading is O(1). A change copies the value only when the box is shared (the store keeps the
/// previous state, so the first change in a commit copies once; later ones in the same commit
/// do not). Two properties that share a box are equal without comparing their values.
@propertyWrapper
public struct CopyOnWrite<Value> {
    private var box: _CopyOnWriteBox<Value>

    /// Creates the property with its initial value.
    public init(wrappedValue: Value) {
        box = _CopyOnWriteBox(wrappedValue)
    }

    /// The value. A change copies it first when another copy of the property shares it.
    ///
    /// - Complexity: O(1) to read; a change costs a copy of the value when the box is shared.
    public var wrappedValue: Value {
        get { box.value }
        set {
            if isKnownUniquelyReferenced(&box) {
                box.value = newValue
            } else {
                box = _CopyOnWriteBox(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) {
                box = _CopyOnWriteBox(box.value)
            }
            yield &box.value
        }
    }

    /// The box's identity, for tests: it changes exactly when the value is copied.
    var _storageIdentity: ObjectIdentifier { ObjectIdentifier(box) }

    /// Whether both share one box (then they are equal without comparing).
    public func sharesStorage(with other: CopyOnWrite) -> Bool {
        box === other.box
    }
}

// A shared box is never changed in place (a change to a shared box copies it first), so
// copies on different threads only read it.
extension CopyOnWrite: @unchecked Sendable where Value: Sendable {}

extension CopyOnWrite: Equatable where Value: Equatable {
    /// Equal when they share a box, or their values are equal.
    public static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool {
        lhs.box === rhs.box || lhs.box.value == rhs.box.value
    }
}

extension CopyOnWrite: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.value)
    }
}

extension CopyOnWrite: Codable where Value: Codable {
    /// Decodes the value.
    ///
    /// Through a single-value container, as a plain property is decoded: the decoder's
    /// strategies apply (a `JSONDecoder` reads `Data` as base64, `Date` with its
    /// `dateDecodingStrategy`), so a state reads what it encoded before the property was wrapped.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the value.
    ///
    /// Through a single-value container, as a plain property is encoded (the encoder's
    /// strategies apply).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(box.value)
    }
}

/// A ``CopyOnWrite`` value's storage.
final class _CopyOnWriteBox<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
