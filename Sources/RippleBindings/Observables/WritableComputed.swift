import Ripple
import RippleModels

/// A computed value you can also assign: a getter whose reads are tracked, like a
/// `Computed`, and a setter that writes what the value derives from (Fisticuffs' writable
/// `Computed`).
///
/// ```swift
/// let first = Stored("Ada"), last = Stored("Lovelace")
/// let fullName = WritableComputed(
///     get: { "\(first.value) \(last.value)" },
///     set: { name in
///         let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
///         batch {
///             first.value = parts.first ?? ""
///             last.value = parts.count > 1 ? parts[1] : ""
///         }
///     }
/// )
/// fullName.value = "Grace Hopper"    // first.value == "Grace", last.value == "Hopper"
/// ```
///
/// The value is memoized and evaluated lazily, like a `Computed`'s, and changes (and
/// notifies) only when the getter's result differs, for `Equatable` values. Assigning it
/// calls the ``willChange(_:)`` handlers with the current and the assigned value, on the
/// assigning thread, then calls the setter. It is an `ObservableValue`, so it has the
/// `didChange` handlers and binds to controls, two-way through ``binding``.
public final class WritableComputed<Value: Sendable>: ObservableValue, Sendable {
    private let computed: Computed<Value>
    private let setter: @Sendable (Value) -> Void
    private let willChangeHandlers = _HandlerList<(old: Value, new: Value)>()

    /// Creates a writable computed value whose changes are every re-evaluation.
    ///
    /// - Parameters:
    ///   - get: Computes the value; its reads are tracked.
    ///   - set: Writes an assigned value to what `get` reads.
    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
        computed = Computed(get)
        setter = set
    }

    /// Creates a writable computed value that changes only when `get`'s result differs.
    ///
    /// - Parameters:
    ///   - get: Computes the value; its reads are tracked.
    ///   - set: Writes an assigned value to what `get` reads.
    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) where Value: Equatable {
        computed = Computed(get)
        setter = set
    }

    /// The current value; assigning it calls the ``willChange(_:)`` handlers, then the setter.
    ///
    /// - Complexity: Reading is O(1) when nothing it depends on changed, otherwise one
    ///   evaluation of the getter.
    public var value: Value {
        get { computed.value }
        set {
            if !willChangeHandlers.isEmpty {
                willChangeHandlers.call((untracked { computed.value }, newValue))
            }
            setter(newValue)
        }
    }

    /// Calls `handler` with the current and the new value before each assignment (Fisticuffs'
    /// `.beforeChange` subscriptions): on the assigning thread, before the setter runs, so the
    /// graph still shows the old value.
    ///
    /// ```swift
    /// let log = fullName.willChange { old, new in print("\(old) → \(new)") }
    /// ```
    ///
    /// - Returns: A subscription that removes the handler when cancelled or released.
    public func willChange(_ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void) -> Subscription {
        willChangeHandlers.add { handler($0.old, $0.new) }
    }

    /// A two-way binding to this value, for a ``TwoWayBindableProperty`` or any API that
    /// takes a `ValueBinding`.
    public var binding: ValueBinding<Value> {
        ValueBinding(get: { self.value }, set: { self.value = $0 })
    }
}
