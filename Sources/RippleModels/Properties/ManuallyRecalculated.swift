import Ripple

/// A value derived from state Ripple does not track, recomputed only when you call
/// ``recalculate()`` (Yoyo's `ManuallyRecalculatedDerivedProperty`).
///
/// ```swift
/// let processorCount = ManuallyRecalculated { ProcessInfo.processInfo.activeProcessorCount }
/// // when the system says it changed:
/// processorCount.recalculate()
/// ```
///
/// Reads of it are tracked like a `Stored`; recalculating to an equal value (for `Equatable`
/// values) notifies nobody.
public final class ManuallyRecalculated<Value: Sendable>: Readable, ObservableValue, Sendable {
    private let calculate: @Sendable () -> Value
    private let storage: Stored<Value>

    /// Creates the value and calculates it once. Reads inside `calculate` are not tracked.
    public convenience init(_ calculate: @escaping @Sendable () -> Value) {
        self.init(comparingWith: _equality(for: Value.self), calculate)
    }

    /// Creates the value with its own equality (Yoyo's `changePredicate:`): a recalculation
    /// reaches the readers only when `isEqual` says the value changed.
    ///
    /// ```swift
    /// let total = ManuallyRecalculated(equals: { abs($0 - $1) < 0.01 }) { cart.total() }
    /// ```
    ///
    /// - Parameters:
    ///   - isEqual: When two values count as the same; `nil`: every recalculation notifies.
    ///   - calculate: Computes the value; called now and by ``recalculate()``, untracked.
    public convenience init(
        equals isEqual: (@Sendable (Value, Value) -> Bool)?, _ calculate: @escaping @Sendable () -> Value
    ) {
        self.init(comparingWith: isEqual, calculate)
    }

    private init(
        comparingWith isEqual: (@Sendable (Value, Value) -> Bool)?, _ calculate: @escaping @Sendable () -> Value
    ) {
        self.calculate = calculate
        storage = Stored(untracked(calculate), equals: isEqual)
    }

    /// The value as of the last ``recalculate()``.
    public var value: Value { storage.value }

    /// Calculates the value again and notifies readers if it changed.
    public func recalculate() {
        storage.value = untracked(calculate)
    }
}
