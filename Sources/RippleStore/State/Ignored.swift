import Ripple

/// A state property that never counts as a change (OneWay's `@Ignored`): a cache, a formatter
/// or a handle kept with the state, which no reader should hear about.
///
/// ```swift
/// struct FeedState: Equatable, Sendable {
///     var items: [Item] = []
///     @Ignored var lastScrollOffset = 0.0
/// }
///
/// store.commit { $0.lastScrollOffset = 240 }   // publishes nothing, wakes no one
/// store.currentState.lastScrollOffset          // 240: the write is kept
/// ```
///
/// Equality and hashing ignore it, so a commit that changes only an ignored property publishes
/// nothing. Because a store keeps the previous state when nothing changed, an ordinary stored
/// property would then lose the write; so an ignored value lives in a shared, locked box
/// instead, and every write is kept at once. The consequences are deliberate and worth
/// knowing: every copy of the state shares the box (`changes.previous.lastScrollOffset` shows
/// the latest value), and a commit that throws does not undo a write to it.
@propertyWrapper
public struct Ignored<Value: Sendable>: Equatable, Hashable, Sendable {
    private let box: _IgnoredBox<Value>

    /// Creates the property with its initial value.
    public init(wrappedValue: Value) {
        box = _IgnoredBox(wrappedValue)
    }

    /// The value. Writing it changes every copy of the state at once and is never published.
    ///
    /// - Complexity: O(1), under a lock.
    public var wrappedValue: Value {
        get { box.lock.withLock { box.value } }
        nonmutating set { box.lock.withLock { box.value = newValue } }
    }

    /// Always `true`: an ignored property is never a change.
    public static func == (lhs: Ignored, rhs: Ignored) -> Bool { true }

    /// Contributes nothing.
    public func hash(into hasher: inout Hasher) {}
}

extension Ignored: Codable where Value: Codable {
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
        try container.encode(wrappedValue)
    }
}

/// An ignored value's storage, shared by every copy of the state.
final class _IgnoredBox<Value: Sendable>: @unchecked Sendable {
    let lock = _Lock()
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
