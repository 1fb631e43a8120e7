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
    public init(_ calculate: @escaping @Sendable () -> Value) {
        self.calculate = calculate
        storage = Stored(untracked(calculate), equals: _equality(for: Value.self))
    }

    /// The value as of the last ``recalculate()``.
    public var value: Value { storage.value }

    /// Calculates the value again and notifies readers if it changed.
    public func recalculate() {
        storage.value = untracked(calculate)
    }
}
