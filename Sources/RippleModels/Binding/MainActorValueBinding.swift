import Ripple

/// A two-way handle on a property of a main-actor model, used on the main actor: what
/// `model.bindings.count` and `$model.count` are for a model that is not a ``SendableModel``.
///
/// It reads and writes like a ``ValueBinding``: reading ``value`` reads through to the
/// property (and is tracked like it), writing writes through the property's setter, so its
/// `didSet` runs, and a compound assignment (`count.value += 1`) is one atomic
/// read-modify-write. Unlike a ``ValueBinding`` it is main-actor isolated, as SwiftUI's
/// `Binding` is in practice: the property's main-actor accessors (its `didSet`, a custom
/// setter) run only on the main actor. Code on another thread cannot read or write it without
/// `await`; the compiler refuses `Task.detached { count.value = 1 }` ("main actor-isolated
/// property 'value' can not be mutated from a nonisolated context").
///
/// ```swift
/// // In an app target (main-actor default isolation), or with `@MainActor` written out:
/// final class Counter: ObservableModel {
///     @Observed var count = 0 {
///         didSet { print("count:", count) }   // always on the main actor
///     }
/// }
/// let counter = Counter()
/// let count = counter.bindings.count          // MainActorValueBinding<Int>
/// count.value += 1                            // counter.count == 1, didSet runs
/// let width = layout.bindings.frame.width     // projections stay main-actor bindings
/// ```
///
/// It is also a property wrapper, for a main-actor object that edits a value it does not own:
///
/// ```swift
/// final class StepperView {
///     @MainActorValueBinding var count: Int
///     init(count: MainActorValueBinding<Int>) { _count = count }
///     func increment() { count += 1 }
/// }
/// ```
///
/// Observe it as you observe the property: reads inside a `MainActorComputed` or an
/// `observeOnMainActor` reaction are tracked. A ``ValueBinding`` (to a `Stored`, or to a
/// ``SendableModel``'s property) becomes one with ``init(_:)``; the other way round is refused
/// on purpose.
///
/// - Complexity: Reading or writing costs what the property's own access costs, plus one
///   key-path access per level of projection.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct MainActorValueBinding<Value> {
    let read: () -> Value
    let modify: (@escaping (inout Value) -> Void) -> Void
    /// Writes a value outright, for an assignment and for the end of a compound assignment
    /// (which holds the source's other writers back itself); `nil`: through `modify`.
    let write: ((Value) -> Void)?

    init(
        read: @escaping () -> Value, modify: @escaping (@escaping (inout Value) -> Void) -> Void,
        write: ((Value) -> Void)? = nil
    ) {
        self.read = read
        self.modify = modify
        self.write = write
    }

    /// Creates a binding from a getter and a setter, both called on the main actor.
    ///
    /// Reads in `get` are tracked as usual. A compound assignment reads with `get`, then
    /// writes with `set`, atomically with respect to the other writers of the first `Stored`
    /// or `@Observed` value `get` reads.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        let (modify, write) = Self._modifyAndWrite(get, set)
        self.init(read: get, modify: modify, write: write)
    }

    /// The `modify` and `write` of ``init(get:set:)``. Made here, not in the initializer: a
    /// closure made in main-actor code and stored as a plain function type checks the executor
    /// at each call (the getter and setter, given by main-actor code, still do).
    private nonisolated static func _modifyAndWrite(
        _ get: @escaping () -> Value, _ set: @escaping (Value) -> Void
    ) -> (modify: (@escaping (inout Value) -> Void) -> Void, write: (Value) -> Void) {
        let write = { (value: Value) in untracked { batch { set(value) } } }
        return (
            { transform in _readModifyWrite(read: { untracked(get) }, transform: transform, write: write) },
            { value in _writeThroughSetter(value, write) }
        )
    }

    /// Creates a binding to a property of a model; writes go through the property's setter,
    /// so its `didSet` runs (on the main actor).
    ///
    /// The binding holds the model strongly. `model.bindings.count` and `$model.count` (with
    /// ``ObservedModel``) create the same for a model that is not a ``SendableModel``.
    public init<Model: AnyObject>(_ model: Model, _ path: ReferenceWritableKeyPath<Model, Value>) {
        self.init(get: { model[keyPath: path] }, set: { model[keyPath: path] = $0 })
    }

    /// A main-actor binding that reads and writes through `binding`, which may also be used
    /// on other threads (it is `Sendable`).
    public init(_ binding: ValueBinding<Value>) {
        self.init(read: { binding.value }, modify: { binding.update($0) })
    }

    /// A binding that always reads `value` and ignores writes; for previews and tests.
    public static func constant(_ value: Value) -> MainActorValueBinding {
        MainActorValueBinding(read: { value }, modify: { _ in })
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

    /// The current value, as a property wrapper: `@MainActorValueBinding var count: Int`.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { value = newValue }
        nonmutating _modify { yield &value }
    }

    /// The binding itself: `$count` inside an object that declares
    /// `@MainActorValueBinding var count`.
    public var projectedValue: MainActorValueBinding<Value> { self }

    /// Creates the wrapper from a binding: `_count = binding`.
    public init(projectedValue: MainActorValueBinding<Value>) {
        self = projectedValue
    }

    /// Changes the value in place through the source, atomically with respect to its other
    /// writers.
    ///
    /// ```swift
    /// model.bindings.items.update { $0.append(item) }
    /// ```
    public func update(_ transform: @escaping (inout Value) -> Void) {
        modify(transform)
    }

    /// A binding to a part of the value: `model.bindings.frame.width`.
    public subscript<Part>(dynamicMember path: WritableKeyPath<Value, Part>) -> MainActorValueBinding<Part> {
        let read = read
        let modify = modify
        return MainActorValueBinding<Part>(
            read: { read()[keyPath: path] },
            modify: { transform in modify { transform(&$0[keyPath: path]) } }
        )
    }
}
