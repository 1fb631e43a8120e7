import Ripple

/// Lets a type of your own take part in dependency tracking: it reports its reads and its
/// changes, and the computed values and reactions that read it follow it like a `Stored`
/// (Fisticuffs' `DependencyTracker.didReadObservable`).
///
/// ```swift
/// final class Thermometer: @unchecked Sendable {
///     private let signal = ChangeSignal()
///     private var celsius = 20.0              // guarded by your own lock
///
///     var reading: Double {
///         signal.reportRead()                 // the current derivation now depends on it
///         return celsius
///     }
///     func record(_ value: Double) {
///         celsius = value
///         signal.reportChange()               // re-evaluates and re-runs its readers
///     }
/// }
///
/// let thermometer = Thermometer()
/// let warm = Computed { thermometer.reading > 25 }
/// ```
///
/// A change reported inside a `batch` is delivered with the batch, and one reported inside a
/// reaction after the current round, like a write. Readers always re-run on a reported
/// change: there is no value to compare.
public final class ChangeSignal: Sendable {
    private let version: Stored<UInt64>

    /// Creates a signal.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        version = Stored(0, name: name, file: file, line: line)
    }

    /// Records a read: the derivation or reaction that is running depends on this signal.
    /// Outside one, it does nothing.
    ///
    /// - Complexity: O(1), a read of a `Stored`.
    public func reportRead() {
        _ = version.value
    }

    /// Reports a change: every derivation and reaction that reported a read is re-evaluated or
    /// runs again.
    ///
    /// - Complexity: A write of a `Stored`: O(*n*) in the dependents not already marked.
    public func reportChange() {
        version.update { $0 &+= 1 }
    }
}
