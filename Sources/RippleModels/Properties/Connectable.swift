import Ripple

/// A value whose source can be switched later: to another reactive value or to a constant
/// (Yoyo's `ConnectableProperty`).
///
/// Readers follow whatever it is connected to now; switching notifies them if the value
/// differs.
///
/// ```swift
/// let currentTitle = Connectable("")          // nothing to follow yet
/// let observer = currentTitle.didChange { print($0) }
/// currentTitle.connect(to: document.title)    // follows the document
/// currentTitle.connect(toConstant: "Untitled")
/// ```
public final class Connectable<Value: Sendable>: Readable, ObservableValue, Sendable {
    private enum Source: Sendable {
        case node(read: @Sendable () -> Value, readUpdates: @Sendable () -> Value)
        case constant(Value)
    }

    private let source: Stored<Source>
    private let current: Computed<Value>

    /// Creates a value connected to the constant `value`.
    public convenience init(_ value: Value) {
        self.init(source: .constant(value), equals: _equality(for: Value.self))
    }

    /// Creates a value connected to the constant `value`, whose readers run again only when
    /// `isEqual` says the value changed (Yoyo's `changePredicate:`).
    ///
    /// - Parameters:
    ///   - value: The first value.
    ///   - isEqual: When two values count as the same; `nil`: every change of the source or
    ///     connection notifies.
    public convenience init(_ value: Value, equals isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.init(source: .constant(value), equals: isEqual)
    }

    /// Creates a value connected to `node`.
    public convenience init(connectedTo node: some ObservableValue<Value> & Sendable) {
        self.init(
            source: .node(read: { node.value }, readUpdates: { node._readForUpdate() }),
            equals: _equality(for: Value.self))
    }

    /// Creates a value connected to `node`, with its own equality (Yoyo's `changePredicate:`).
    ///
    /// - Parameters:
    ///   - node: The first source.
    ///   - isEqual: When two values count as the same; `nil`: every change notifies.
    public convenience init(
        connectedTo node: some ObservableValue<Value> & Sendable, equals isEqual: (@Sendable (Value, Value) -> Bool)?
    ) {
        self.init(source: .node(read: { node.value }, readUpdates: { node._readForUpdate() }), equals: isEqual)
    }

    private init(source initial: Source, equals isEqual: (@Sendable (Value, Value) -> Bool)?) {
        let source = Stored(initial, equals: nil)
        self.source = source
        current = Computed(name: "Connectable", equals: isEqual) {
            switch source.value {
            case .node(let read, _): read()
            case .constant(let value): value
            }
        }
    }

    /// The value of the current source; reading it tracks both the connection and the source.
    public var value: Value { current.value }

    /// Reads the value so that the reader depends on every update of the current source.
    public func _readForUpdate() -> Value {
        switch source.value {
        case .node(_, let readUpdates): readUpdates()
        case .constant(let value): value
        }
    }

    /// Follows `node` from now on.
    public func connect(to node: some ObservableValue<Value> & Sendable) {
        source.value = .node(read: { node.value }, readUpdates: { node._readForUpdate() })
    }

    /// Holds `value` from now on.
    public func connect(toConstant value: Value) {
        source.value = .constant(value)
    }
}
