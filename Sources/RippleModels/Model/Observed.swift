import Ripple

/// Marks a property of an ``ObservableModel`` class as observable.
///
/// Reading the property inside a `Computed` or an `observe { }` reaction tracks it; writing
/// it notifies the readers when the value changed (for `Equatable` values; others notify on
/// every write). A `didUpdate` handler on the property's ``ValueBinding`` also hears writes of an
/// equal value, as DidUpdate's does.
///
/// ```swift
/// final class Counter: SendableModel, @unchecked Sendable {
///     @Observed var count = 0
/// }
/// ```
///
/// `didSet` and `willSet` observers work as usual, and run for writes made through a binding.
/// Two orderings to know:
/// - A direct assignment outside reactions is delivered before the property's `didSet` runs:
///   handlers and reactions run first (with any writes they queue), then `didSet`, which
///   therefore reads the latest value. A write made through a ``ValueBinding`` runs `didSet` first
///   and delivers after it.
/// - A direct assignment inside a reaction is queued until the current round of reactions
///   ends (as for `Stored`), but `didSet` runs at once, so it still reads the committed
///   value. A write made through a ``ValueBinding`` is queued whole, `didSet` included, and does
///   not have this problem.
///
/// The wrapper only works on properties of classes; Swift reaches it through the enclosing
/// instance.
@propertyWrapper
public struct Observed<Value: Sendable>: Sendable {
    /// The value, deduplicated by the value's equality; its `writeCount` moves on every
    /// write, equal or not, which is what `didUpdate` listens to.
    private let storage: Stored<Value>

    /// Creates the property with its initial value; writes of an equal value notify only
    /// `didUpdate` handlers.
    public init(wrappedValue: Value) where Value: Equatable {
        storage = Stored(wrappedValue)
    }

    /// Creates the property with its initial value; every write notifies.
    public init(wrappedValue: Value) {
        storage = Stored(wrappedValue, equals: nil)
    }

    /// Creates an optional property that starts as `nil`: `@Observed var selection: Item?`,
    /// with no `= nil` to write.
    public init<Wrapped>() where Value == Wrapped? {
        storage = Stored(nil, equals: _equality(for: Value.self))
    }

    private init(value: Value) {
        storage = Stored(value, equals: _equality(for: Value.self))
    }

    /// Not available: an `@Observed` property must belong to a class.
    @available(*, unavailable, message: "@Observed can only be applied to properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Observed can only be applied to properties of classes") }
        set { fatalError("@Observed can only be applied to properties of classes") }
    }

    /// The property's value, reached through the model that holds it.
    public static subscript<Model: AnyObject>(
        _enclosingInstance model: Model,
        wrapped wrappedPath: ReferenceWritableKeyPath<Model, Value>,
        storage storagePath: ReferenceWritableKeyPath<Model, Self>
    ) -> Value {
        get { model[keyPath: storagePath].read() }
        set { model[keyPath: storagePath].write(newValue) }
        // A compound assignment (`model.count += 1`) is one atomic read-modify-write: other
        // writers of the property wait until it ends (readers never wait).
        _modify {
            let access = _beginExclusiveAccess()
            defer { _endExclusiveAccess(access) }
            var copy = model[keyPath: storagePath].read()
            yield &copy
            model[keyPath: storagePath].write(copy)
        }
    }

    /// The property, to observe: `model.$frame.didChange { }`, `model.$frame.size.width`
    /// (DidUpdate's projected value).
    ///
    /// ```swift
    /// let observer = model.$frame.didChange(comparing: \.size.width) { old, new in relayout() }
    /// ```
    ///
    /// It is read-only: write the property itself, or through `model.bindings.frame`, so that
    /// its `didSet` runs. It holds the property's storage, not the model.
    public static subscript<Model: AnyObject>(
        _enclosingInstance model: Model,
        projected projectedPath: KeyPath<Model, ReadOnlyBinding<Value>>,
        storage storagePath: ReferenceWritableKeyPath<Model, Self>
    ) -> ReadOnlyBinding<Value> {
        ValueBinding(model[keyPath: storagePath].storage).readOnly
    }

    /// Never read directly: Swift reaches the property through the enclosing instance.
    @available(*, unavailable, message: "$property can only be used on properties of classes")
    public var projectedValue: ReadOnlyBinding<Value> {
        fatalError("$property can only be used on properties of classes")
    }

    private func read() -> Value {
        if _ReadMode.readsEveryUpdate { _ = storage.writeCount }
        return storage.value
    }

    private func write(_ newValue: Value) {
        storage.value = newValue
    }
}

extension Observed: Codable where Value: Codable {
    /// Decodes the value, so that a model with `@Observed` properties can be `Codable`.
    ///
    /// The value is decoded through a single-value container, as a plain property's is: the
    /// decoder's strategies apply (a `JSONDecoder` reads `Data` as base64 and `Date` with its
    /// `dateDecodingStrategy`), so a model reads what it encoded before it used `@Observed`.
    public init(from decoder: any Decoder) throws {
        self.init(value: try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the current value through a single-value container, as a plain property's is
    /// (the encoder's strategies apply).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storage.value)
    }
}
