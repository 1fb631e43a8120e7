import Ripple

/// A read-only view of a value that lives somewhere else: a mapped ``ValueBinding``, a
/// ``compound(_:_:)``, ``allTrue(_:)``, or a ``ValueBinding/readOnly`` binding.
///
/// It reads through to its source on every access, so it is always current and costs no
/// memory of its own. It supports the `didUpdate` / `didChange` handlers of
/// ``ObservableValue``; a `didChange` fires only when the final, mapped value changes:
///
/// ```swift
/// let isLarge = $model.count.map { $0 > 10 }
/// let observer = isLarge.didChange { print("large:", $0) }  // not on 3 → 4, only on 10 → 11
/// ```
@dynamicMemberLookup
public struct ReadOnlyBinding<Value>: ObservableValue, Sendable {
    let read: @Sendable () -> Value
    let readUpdates: @Sendable () -> Value

    init(read: @escaping @Sendable () -> Value, readUpdates: @escaping @Sendable () -> Value) {
        self.read = read
        self.readUpdates = readUpdates
    }

    /// Creates a read-only view of any observable value.
    public init(_ source: some ObservableValue<Value> & Sendable) {
        self.init(read: { source.value }, readUpdates: { source._readForUpdate() })
    }

    /// A binding that always holds `value` (DidUpdate's constant read-only proxy): for a view
    /// that takes a binding, fed a fixed value.
    ///
    /// ```swift
    /// let title = ReadOnlyBinding(always: "Settings")
    /// ```
    public init(always value: Value) where Value: Sendable {
        self.init(get: { value })
    }

    /// Creates a read-only view from a getter; reads inside it are tracked.
    public init(get: @escaping @Sendable () -> Value) {
        self.init(read: get, readUpdates: get)
    }

    /// The current value; reading it tracks the source.
    public var value: Value { read() }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { readUpdates() }

    /// A view of a part of the value.
    public subscript<Part>(dynamicMember path: any KeyPath<Value, Part> & Sendable) -> ReadOnlyBinding<Part> {
        ReadOnlyBinding<Part>(read: { read()[keyPath: path] }, readUpdates: { readUpdates()[keyPath: path] })
    }

    /// A view of the value transformed by `transform` (which runs on every read).
    public func map<Mapped>(_ transform: @escaping @Sendable (Value) -> Mapped) -> ReadOnlyBinding<Mapped> {
        ReadOnlyBinding<Mapped>(read: { transform(read()) }, readUpdates: { transform(readUpdates()) })
    }
}
