/// A reactive value that can be read and tracked: ``Stored``, ``Computed`` and the
/// types built on them.
///
/// Reading ``value`` inside a ``Computed`` derivation or an ``observe(file:line:_:)``
/// reaction records a dependency; the reader runs again when the value changes.
///
/// ```swift
/// func describe(_ count: some Readable<Int>) -> Computed<String> {
///     Computed { "\(count.value) items" }
/// }
/// ```
public protocol Readable<Value>: AnyObject {
    /// The type of the value.
    associatedtype Value

    /// The current value. Reading it inside a derivation or reaction tracks it.
    var value: Value { get }
}
