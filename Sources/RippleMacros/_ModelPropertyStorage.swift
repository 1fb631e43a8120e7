import Ripple
import RippleModels

/// The storage of one property of a ``RippleModel()`` class: a `Stored` value, reached only
/// through the accessors the macro generates. Not for direct use.
///
/// It behaves as an `@Observed` property: reads are tracked (and registered with Observation
/// outside Ripple's tracking), `Equatable` values notify only when they change, and a compound
/// assignment (`model.count += 1`) is one atomic read-modify-write, through `Stored.value`'s
/// own `_modify`.
///
/// The node is kept untyped because the macro cannot spell the type of a property declared
/// without one (`var filter = Filter.all`). Each accessor gets `Value` by type inference from
/// the property's own type (the init accessor's `initialValue`, the getter's result, the
/// setter's `newValue`, the `_modify`'s yielded value), which is the type the node was created
/// with, so the downcast always holds; debug builds check it.
///
/// - Complexity: O(1) per access, plus what the same access costs on a `Stored`.
public struct _ModelPropertyStorage: @unchecked Sendable {
    // @unchecked: `node` is a `Stored<Value>` whose `Value` is `Sendable` (the initialisers
    // require it), and a `Stored` of a `Sendable` value is `Sendable`.
    @usableFromInline let node: AnyObject

    /// Creates the storage of an `Equatable` property: writes of an equal value notify only
    /// `didUpdate` handlers.
    public init<Value: Sendable & Equatable>(
        _ value: Value, name: String, file: StaticString = #fileID, line: UInt = #line
    ) {
        node = Stored(value, name: name, file: file, line: line)
    }

    /// Creates the storage of a property whose value is not `Equatable`: every write notifies.
    public init<Value: Sendable>(_ value: Value, name: String, file: StaticString = #fileID, line: UInt = #line) {
        node = Stored(value, name: name, equals: nil, file: file, line: line)
    }

    @inlinable
    func stored<Value>(_: Value.Type = Value.self) -> Stored<Value> {
        unsafeDowncast(node, to: Stored<Value>.self)
    }

    /// The property's value: `get { _count[] }`, `set { _count[] = newValue }`,
    /// `_modify { yield &_count[] }`.
    ///
    /// Inlinable, so that the access is compiled for the property's type in the model's
    /// module: compiled here, once for every type, each read and write handled the value
    /// through its type's run-time metadata (as `@Observed`'s accessors did, see
    /// `Observed._read()`).
    public subscript<Value>() -> Value {
        @inlinable get {
            let stored = stored(Value.self)
            // Read through a binding's `didUpdate`: depend on every write, equal ones included.
            if _ReadMode.readsEveryUpdate { _ = stored.writeCount }
            return stored.value
        }
        @inlinable nonmutating set {
            stored(Value.self).value = newValue
        }
        // `Stored.value`'s `_modify`: the value's other writers wait until the assignment ends.
        @inlinable nonmutating _modify {
            yield &stored(Value.self).value
        }
    }
}
