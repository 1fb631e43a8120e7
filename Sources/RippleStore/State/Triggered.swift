/// A state property whose every assignment counts as a change, even of an equal value
/// (OneWay's `@Triggered`): for one-shot signals kept in the state, such as an alert to show
/// again with the same text.
///
/// ```swift
/// struct ScreenState: Equatable, Sendable {
///     @Triggered var alert: String? = nil
/// }
///
/// store.commit { $0.alert = "Saved" }
/// store.commit { $0.alert = "Saved" }     // published again: a second change
///
/// store.sinkState { changes in
///     changes.ifChanged(\.$alert) { alert in present(alert.wrappedValue) }   // runs for both
/// }
/// ```
///
/// The state compares unequal after an assignment, so the commit is published. Readers that
/// compare the value itself (`ifChanged(\.alert)`, `store.state.alert`) still see an equal value;
/// read the projected value (`\.$alert`), which changes with every assignment, to hear each one.
/// Changes made in place (`$0.items.append(x)`) count as assignments.
@propertyWrapper
public struct Triggered<Value: Equatable & Sendable>: Equatable, Sendable {
    private var value: Value
    /// How many times the value was assigned.
    public private(set) var generation: UInt64 = 0

    /// Creates the property with its initial value (generation 0).
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// The value. Every assignment counts as a change.
    public var wrappedValue: Value {
        get { value }
        set {
            value = newValue
            generation &+= 1
        }
    }

    /// The property itself, which changes with every assignment: observe `\.$name` to hear
    /// each one.
    public var projectedValue: Triggered<Value> { self }
}

extension Triggered: Hashable where Value: Hashable {}

extension Triggered: Codable where Value: Codable {
    /// Decodes the value (at generation 0).
    ///
    /// Through a single-value container, as a plain property is decoded: the decoder's
    /// strategies apply (a `JSONDecoder` reads `Data` as base64, `Date` with its
    /// `dateDecodingStrategy`), so a state reads what it encoded before the property was wrapped.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the value only.
    ///
    /// Through a single-value container, as a plain property is encoded (the encoder's
    /// strategies apply).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
