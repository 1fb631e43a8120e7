import Ripple

/// A two-way handle on a value that lives somewhere else: a model property, a `Stored`, or
/// a part of either.
///
/// Reading ``value`` reads through to the source (and is tracked like the source); writing
/// it writes through, so a model property's `didSet` runs. Inside a reaction or a handler, a
/// write through a binding is queued after the current round, like any write, and applied
/// then to the value committed at that point: two `update { $0 += 1 }` in one handler add two.
///
/// Read-modify-writes through a binding (`count.value += 1`, `items.value.append(x)`,
/// ``update(_:)``) are atomic with respect to every other writer of the source, on any
/// thread, when the source is a `Stored` or an `@Observed` property (or a part of one):
/// ``update(_:)`` retries its transform if another write lands while it runs, and a compound
/// assignment makes the source's other writers wait until it ends (readers never wait). For a
/// binding made from a getter and a setter, the source is the first `Stored` or `@Observed`
/// value the getter reads. Project further with key paths
/// (`$model.frame.size.width` is a `ValueBinding<Double>`), derive read-only views with
/// ``map(_:)``, and attach the `didUpdate` / `didChange` handlers of ``ObservableValue``.
///
/// ```swift
/// final class Counter: SendableModel, @unchecked Sendable {
///     @Observed var count = 0
/// }
/// let counter = Counter()
/// let count: ValueBinding<Int> = counter.bindings.count
/// count.value += 1                    // counter.count == 1
/// ```
///
/// `ValueBinding` is also a property wrapper, for objects that edit a value they do not own
/// (DidUpdate's `ValueProxy`):
///
/// ```swift
/// final class StepperView {
///     @ValueBinding var count: Int
///     init(count: ValueBinding<Int>) { _count = count }
///     func increment() { count += 1 }
/// }
/// ```
///
/// It is named `ValueBinding`, not `Binding`, so that it never clashes with `SwiftUI.Binding` in a file that imports both.
///
/// - Complexity: Reading or writing through a projection costs one key-path access per
///   level on top of the source's own cost.
@propertyWrapper
@dynamicMemberLookup
public struct ValueBinding<Value>: ObservableValue, Sendable {
    let read: @Sendable () -> Value
    let readUpdates: @Sendable () -> Value
    let modify: @Sendable (@escaping (inout Value) -> Void) -> Void
    /// Writes a value outright, for an assignment and for the end of a compound assignment
    /// (which holds the source's other writers back itself); `nil`: through `modify` (a source
    /// with its own read-modify-write).
    let write: (@Sendable (Value) -> Void)?

    init(
        read: @escaping @Sendable () -> Value,
        readUpdates: @escaping @Sendable () -> Value,
        modify: @escaping @Sendable (@escaping (inout Value) -> Void) -> Void,
        write: (@Sendable (Value) -> Void)? = nil
    ) {
        self.read = read
        self.readUpdates = readUpdates
        self.modify = modify
        self.write = write
    }

    /// Creates a binding from a getter and a setter.
    ///
    /// Reads in `get` are tracked as usual, so a getter that reads reactive values makes a
    /// binding you can observe.
    ///
    /// ```swift
    /// let celsius = Stored(20.0)
    /// let fahrenheit = ValueBinding(
    ///     get: { celsius.value * 9 / 5 + 32 },
    ///     set: { celsius.value = ($0 - 32) * 5 / 9 }
    /// )
    /// ```
    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
        let write: @Sendable (Value) -> Void = { value in untracked { batch { set(value) } } }
        self.init(
            read: get, readUpdates: get,
            modify: { transform in _readModifyWrite(read: { untracked(get) }, transform: transform, write: write) },
            write: { value in _writeThroughSetter(value, write) })
    }

    /// Creates a binding to storage that applies changes itself: every write and every
    /// ``update(_:)`` goes through `update`, which must apply the transform atomically with
    /// respect to the storage's other writers (a store's `commit`, a lock).
    ///
    /// Use it for storage with its own read-modify-write, where ``init(get:set:)``'s separate
    /// read and write could let a concurrent write in between. A compound assignment through
    /// such a binding (`binding.value += 1`) still reads, then writes through `update`: from
    /// several threads, use ``update(_:)``, which is atomic.
    ///
    /// ```swift
    /// let count = ValueBinding(get: { store.state.count }, update: { transform in
    ///     store.commit { transform(&$0.count) }
    /// })
    /// count.update { $0 += 1 }   // one commit
    /// ```
    ///
    /// - Parameters:
    ///   - get: Reads the value. Reads inside it are tracked like any binding's.
    ///   - update: Applies a transform to the stored value, atomically.
    public init(
        get: @escaping @Sendable () -> Value,
        update: @escaping @Sendable (_ transform: @escaping (inout Value) -> Void) -> Void
    ) {
        self.init(read: get, readUpdates: get, modify: update)
    }

    /// Creates a binding to a stored value. Read-modify-writes through it (`+=`, appends)
    /// are applied atomically with `Stored.update(_:)`.
    public init(_ stored: Stored<Value>) where Value: Sendable {
        self.init(
            read: { stored.value },
            readUpdates: { stored._readForUpdate() },
            modify: { stored.update($0) }
        )
    }

    /// Creates a binding to a property of a model; writes go through the property's setter,
    /// so its `didSet` runs.
    ///
    /// The binding holds the model strongly: a handler that the model itself keeps, attached
    /// to one of its own bindings, makes a cycle. Use ``init(weak:_:ifReleased:)`` there.
    ///
    /// `$model.count` (with ``ObservedModel``) and `model.bindings.count` create the same.
    public init<Model: AnyObject & Sendable>(
        _ model: Model,
        _ path: any ReferenceWritableKeyPath<Model, Value> & Sendable
    ) {
        let write: @Sendable (Value) -> Void = { value in untracked { batch { model[keyPath: path] = value } } }
        self.init(
            read: { model[keyPath: path] },
            readUpdates: { _ReadMode.everyUpdate { model[keyPath: path] } },
            modify: { transform in
                _readModifyWrite(read: { untracked { model[keyPath: path] } }, transform: transform, write: write)
            },
            write: { value in _writeThroughSetter(value, write) }
        )
    }

    /// Creates a binding to a property of a model that it holds weakly.
    ///
    /// Once the model is gone, reads return `fallback` and writes are ignored.
    ///
    /// ```swift
    /// let name = ValueBinding(weak: session, \.userName, ifReleased: "")
    /// ```
    public init<Model: AnyObject & Sendable>(
        weak model: Model,
        _ path: any ReferenceWritableKeyPath<Model, Value> & Sendable,
        ifReleased fallback: Value
    ) where Value: Sendable {
        let reference = _WeakReference(model)
        self.init(
            read: { reference.object.map { $0[keyPath: path] } ?? fallback },
            readUpdates: { _ReadMode.everyUpdate { reference.object.map { $0[keyPath: path] } ?? fallback } },
            modify: { transform in
                _readModifyWrite(
                    read: { untracked { reference.object.map { $0[keyPath: path] } } },
                    transform: { value in
                        guard value != nil else { return }
                        transform(&value!)
                    },
                    write: { value in
                        guard let value, let model = reference.object else { return }
                        untracked { batch { model[keyPath: path] = value } }
                    }
                )
            }
        )
    }

    /// A binding that always reads `value` and ignores writes; for previews and tests.
    public static func constant(_ value: Value) -> ValueBinding where Value: Sendable {
        ValueBinding(read: { value }, readUpdates: { value }, modify: { _ in })
    }

    /// The current value. Reading tracks the source; assigning writes through to it.
    public var value: Value {
        get { read() }
        // An assignment writes outright: reading the value first, to compare and set, would
        // change nothing but its cost.
        nonmutating set {
            if let write { write(newValue) } else { modify { $0 = newValue } }
        }
        nonmutating _modify {
            // One atomic read-modify-write: the source's other writers wait until it ends, so
            // the write at its end needs no compare and set of its own (as `Stored.value`'s).
            let access = _beginExclusiveAccess()
            defer { _endExclusiveAccess(access) }
            var copy = read()
            yield &copy
            if let write { write(copy) } else { modify { [copy] in $0 = copy } }
        }
    }

    /// The current value, as a property wrapper: `@ValueBinding var count: Int`.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { value = newValue }
        nonmutating _modify { yield &value }
    }

    /// The binding itself: `$count` inside an object that declares `@ValueBinding var count`.
    public var projectedValue: ValueBinding<Value> { self }

    /// Creates the wrapper from a binding: `_count = binding` or `@ValueBinding var count: Int`
    /// initialised with `$model.count`.
    public init(projectedValue: ValueBinding<Value>) {
        self = projectedValue
    }

    /// Changes the value in place through the source.
    ///
    /// ```swift
    /// $model.items.update { $0.append(item) }
    /// ```
    public func update(_ transform: @escaping (inout Value) -> Void) {
        modify(transform)
    }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { readUpdates() }

    /// A binding to a part of the value: `$model.frame.size.width`.
    public subscript<Part>(dynamicMember path: any WritableKeyPath<Value, Part> & Sendable) -> ValueBinding<Part> {
        ValueBinding<Part>(
            read: { read()[keyPath: path] },
            readUpdates: { readUpdates()[keyPath: path] },
            modify: { transform in modify { transform(&$0[keyPath: path]) } }
        )
    }

    /// A read-only view of a part of the value that cannot be written: `$model.name.isEmpty`.
    public subscript<Part>(dynamicMember path: any KeyPath<Value, Part> & Sendable) -> ReadOnlyBinding<Part> {
        readOnly[dynamicMember: path]
    }

    /// A read-only view of the value transformed by `transform`.
    ///
    /// ```swift
    /// let isEmpty = $model.name.map { $0.isEmpty }
    /// ```
    ///
    /// The transform runs on every read; keep it cheap, or wrap the result in a `Computed`.
    public func map<Mapped>(_ transform: @escaping @Sendable (Value) -> Mapped) -> ReadOnlyBinding<Mapped> {
        readOnly.map(transform)
    }

    /// This binding, without the ability to write.
    public var readOnly: ReadOnlyBinding<Value> {
        ReadOnlyBinding(read: read, readUpdates: readUpdates)
    }
}

extension Stored where Value: Sendable {
    /// A two-way ``ValueBinding`` to this value.
    public var binding: ValueBinding<Value> { ValueBinding(self) }
}

/// A weak reference that can be captured by a `@Sendable` closure.
final class _WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?
    init(_ object: Object) { self.object = object }
}
