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
/// Traces, dependency snapshots and diagnostics name the property by its model and name,
/// `'TodoList.items'` (as `@RippleModel` names its properties), from its model's first access
/// to it: reading, writing, binding or projecting it. Until then, or where the program has no
/// reflection metadata to spell the name, they name its declaration's file and line.
///
/// The wrapper only works on properties of classes; Swift reaches it through the enclosing
/// instance.
///
/// - Complexity: Reading and writing cost what a `Stored`'s do, plus a check that the property
///   is named (a few loads, no lock). Optimized builds read the wrapper as a stored property;
///   debug builds reach it through a key path.
@propertyWrapper
public struct Observed<Value: Sendable>: Sendable {
    /// The value, deduplicated by the value's equality; its `writeCount` moves on every
    /// write, equal or not, which is what `didUpdate` listens to.
    @usableFromInline let storage: Stored<Value>

    /// Creates the property with its initial value; writes of an equal value notify only
    /// `didUpdate` handlers.
    ///
    /// `file` and `line` default to the property's declaration: traces name the property by
    /// them until its model first reaches it (see ``Observed``).
    public init(wrappedValue: Value, file: StaticString = #fileID, line: UInt = #line) where Value: Equatable {
        storage = Stored(wrappedValue, nameableLaterEquals: { $0 == $1 }, file: file, line: line)
    }

    /// Creates the property with its initial value; every write notifies.
    ///
    /// `file` and `line` default to the property's declaration: traces name the property by
    /// them until its model first reaches it (see ``Observed``).
    public init(wrappedValue: Value, file: StaticString = #fileID, line: UInt = #line) {
        storage = Stored(wrappedValue, nameableLaterEquals: nil, file: file, line: line)
    }

    /// Creates an optional property that starts as `nil`: `@Observed var selection: Item?`,
    /// with no `= nil` to write.
    public init<Wrapped>() where Value == Wrapped? {
        storage = Stored(nil, nameableLaterEquals: _equality(for: Value.self), file: #fileID, line: #line)
    }

    private init(value: Value) {
        storage = Stored(value, nameableLaterEquals: _equality(for: Value.self), file: #fileID, line: #line)
    }

    /// Not available: an `@Observed` property must belong to a class.
    @available(*, unavailable, message: "@Observed can only be applied to properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Observed can only be applied to properties of classes") }
        set { fatalError("@Observed can only be applied to properties of classes") }
    }

    /// The property's value, reached through the model that holds it.
    @inlinable @inline(__always)
    public static subscript<Model: AnyObject>(
        _enclosingInstance model: Model,
        wrapped wrappedPath: ReferenceWritableKeyPath<Model, Value>,
        storage storagePath: ReferenceWritableKeyPath<Model, Self>
    ) -> Value {
        // Inlinable: Swift passes the storage's key path as a literal (`\Model._count`), and
        // inlined into the model's accessor the optimizer reads the wrapper as a stored
        // property. Applied in this module, the key path went through the standard library's
        // generic projection: about 850 of a read's 1 383 instructions on Linux. Always inlined:
        // the key-path getter thunk a binding calls (`\Model.count`) otherwise kept a call to it
        // once `_named` was inlinable, and the projection with it.
        get { model[keyPath: storagePath]._named(Model.self, storagePath)._read() }
        set { model[keyPath: storagePath]._named(Model.self, storagePath)._write(newValue) }
        // A compound assignment (`model.count += 1`) is one atomic read-modify-write: other
        // writers of the property wait until it ends (readers never wait).
        _modify {
            let observed = model[keyPath: storagePath]._named(Model.self, storagePath)
            let access = observed._beginModify()
            defer { observed._endModify(access) }
            var copy = observed._read()
            yield &copy
            observed._write(copy)
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
        ValueBinding(model[keyPath: storagePath]._named(Model.self, storagePath).storage).readOnly
    }

    /// Never read directly: Swift reaches the property through the enclosing instance.
    @available(*, unavailable, message: "$property can only be used on properties of classes")
    public var projectedValue: ReadOnlyBinding<Value> {
        fatalError("$property can only be used on properties of classes")
    }

    /// Names the property's value `Model.property` for traces and diagnostics, the first time
    /// its model reaches it (as `@RippleModel` names its properties): the property's name is the
    /// storage key path's last component, `\TodoList._items`, without its underscore. Where
    /// the key path does not spell it (no reflection metadata), the value keeps its declaration's
    /// file and line. Costs a few loads once named; naming twice (two threads' first accesses)
    /// keeps the first name. The name is made once per property of a model type
    /// (`_PropertyNames`), not once per model.
    ///
    /// Inlinable, asking before it calls: the storage key path's object is made (about 90
    /// instructions) only for the first access, which names the property.
    @inlinable
    func _named<Model>(_ model: Model.Type, _ storagePath: @autoclosure () -> AnyKeyPath) -> Self {
        if storage._awaitsName { _giveName(model, storagePath()) }
        return self
    }

    /// Names the property (see ``_named(_:_:)``).
    @usableFromInline
    func _giveName<Model>(_ model: Model.Type, _ storagePath: AnyKeyPath) {
        storage._giveName(_PropertyNames.shared.name(for: storagePath) { Self.traceName(of: model, storagePath) })
    }

    /// `Model.property`, from the storage key path `\Model._property`; `nil` if the key path
    /// does not spell its property.
    private static func traceName<Model>(of model: Model.Type, _ storagePath: AnyKeyPath) -> String? {
        let path = "\(storagePath)"
        guard let dot = path.lastIndex(of: ".") else { return nil }
        let component = path[path.index(after: dot)...]
        guard component.first == "_" else { return nil }
        let property = component.dropFirst()
        guard let first = property.first, first.isLetter || first == "_",
            property.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return "\(model).\(property)"
    }

    /// The value, as the model's getter reads it (see ``_ReadMode``). Inlinable, so that the
    /// read of the value is compiled for its type in the client.
    @inlinable
    func _read() -> Value {
        if _ReadMode.readsEveryUpdate { _ = storage.writeCount }
        return storage.value
    }

    /// Writes the value, as the model's setter does (inlinable, as ``_read()``).
    @inlinable
    func _write(_ newValue: Value) {
        storage.value = newValue
    }

    /// Opens a compound assignment's exclusive access (closed by ``_endModify(_:)``), for the
    /// inlined `_modify`, which cannot name Ripple's access type.
    @usableFromInline
    func _beginModify() -> _ModifyAccess {
        _ModifyAccess(access: _beginExclusiveAccess())
    }

    /// Closes a compound assignment's exclusive access: the property's other writers go on.
    @usableFromInline
    func _endModify(_ access: _ModifyAccess) {
        _endExclusiveAccess(access.access)
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

/// A compound assignment's exclusive access to an ``Observed`` property, between
/// `_beginModify()` and `_endModify(_:)`.
@usableFromInline
struct _ModifyAccess {
    let access: _ExclusiveAccess
}
