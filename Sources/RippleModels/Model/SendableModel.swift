/// An ``ObservableModel`` whose properties may be read, written and bound to from any thread:
/// its bindings are `Sendable` ``ValueBinding``s.
///
/// Conform a model that is not isolated to an actor and keeps its mutable state in
/// ``Observed`` properties (or `Stored` values), which are thread-safe; declare it
/// `@unchecked Sendable` as before:
///
/// ```swift
/// final class Counter: SendableModel, @unchecked Sendable {
///     @Observed var count = 0
/// }
/// let count: ValueBinding<Int> = Counter().bindings.count   // usable on any thread
/// ```
///
/// A model that is not a `SendableModel` (a `@MainActor` model, any model in a module that is
/// main-actor isolated by default) gets ``MainActorValueBinding``s instead, usable on the main
/// actor only: a binding written on another thread would run the property's main-actor
/// accessors (its `didSet`) off the main actor. Do not conform a main-actor model: the
/// conformance promises that its properties' accessors may run on any thread. `@RippleModel`
/// adds the conformance itself to a class it checks `Sendable` (whose accessors only touch
/// thread-safe storage).
public protocol SendableModel: ObservableModel, Sendable {}
