import Ripple

/// A reactive value you can read, track, and attach update handlers to.
///
/// The handlers are available when the conforming type is `Sendable` (for `Stored` and
/// `Computed`, when their value is).
///
/// `Stored`, `Computed`, ``ValueBinding``, ``ReadOnlyBinding``, ``Persisted`` and the Yoyo-style
/// properties (``Tentative``, ``Connectable``, ``PassThrough``, ``ManuallyRecalculated``)
/// all conform. Reading ``value`` inside a `Computed` or an `observe { }` reaction tracks it.
///
/// Every conforming type gets the DidUpdate family of handlers. An *update* is a write: every
/// write of a `Stored` or of an ``Observed`` model property (and of the bindings and views
/// over them), even one of an equal value. A `Computed` is not written: its updates are its
/// changes.
///
/// ```swift
/// let count = Stored(0)
/// let updated = count.didUpdate { print("now", $0) }          // every update
/// let changed = count.didChange { old, new in print(old, new) } // only real changes
/// let digits = count.didChange(comparing: \.description.count) { print("digits:", $0) }
/// ```
///
/// Handlers are reactions: they run on the writing thread after the graph's lock is
/// released, once per write or outermost `batch`, and see a consistent graph. A write made
/// inside a handler is delivered to every later handler, in order.
///
/// Unlike an `observe { }` body, a handler does not own what it creates: a reaction started
/// inside a handler runs as long as its own subscription, however often the handler is
/// called again, and reads inside a handler are not tracked.
public protocol ObservableValue<Value> {
    /// The type of the value.
    associatedtype Value

    /// The current value. Reading it inside a derivation or reaction tracks it.
    var value: Value { get }

    /// Reads the value so that the reader depends on every update of it, equal writes
    /// included. For most types this is the same as reading ``value``.
    ///
    /// You do not call this directly; the `didUpdate` family does.
    func _readForUpdate() -> Value

    /// Makes the filter one handler uses to skip updates it must not hear: `nil` for most
    /// types. It is called in the handler's reaction with the value ``_readForUpdate()``
    /// returned; reads in it are tracked, and it returns `true` for an update to skip.
    ///
    /// You do not call this directly; ``ExternallyUpdating`` implements it.
    func _makeEchoFilter() -> (@Sendable (Value) -> Bool)?
}

extension ObservableValue {
    /// Reads ``value``.
    public func _readForUpdate() -> Value { value }

    /// No update is skipped.
    public func _makeEchoFilter() -> (@Sendable (Value) -> Bool)? { nil }
}

extension ObservableValue where Self: Sendable {
    /// Starts the reaction behind every update handler: it calls `deliver` after each
    /// update with the value before and after it, and, when `withCurrent` is set, once at
    /// once with `nil` and the current value.
    func _observeUpdates(
        withCurrent: Bool,
        _ deliver: @escaping @Sendable (_ old: Value?, _ new: Value) -> Void
    ) -> Subscription {
        let echo = _makeEchoFilter()
        let previous = _ReactionState<Value?>(nil)
        return observe {
            let new = self._readForUpdate()
            let isEcho = echo?(new) ?? false
            let old = previous.value
            previous.value = new
            if let old {
                if !isEcho { _callHandler { deliver(old, new) } }
            } else if withCurrent {
                _callHandler { deliver(nil, new) }
            }
        }
    }
}

extension Stored: ObservableValue {
    /// Reads the value so that the reader hears every write, equal ones included.
    public func _readForUpdate() -> Value {
        _ = writeCount
        return value
    }
}

extension Computed: ObservableValue {}

/// Calls a handler from inside the reaction behind it: untracked, and with no owner, so that
/// what the handler creates belongs to whoever holds its subscription, not to the reaction
/// (which would cancel it before its next run).
func _callHandler(_ handler: () -> Void) {
    withoutOwner { untracked(handler) }
}
