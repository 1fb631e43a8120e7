/// Two-way bindings to the properties of a model, looked up by name: `bindings.count` binds
/// `model.count`.
///
/// You get one from ``ObservableModel/bindings`` or as the projected value of
/// ``ObservedModel`` (`$model`). What a lookup returns depends on the model:
///
/// - For a main-actor model (any model that is not a ``SendableModel``: a `@MainActor` class,
///   or any class in a module that is main-actor isolated by default), a
///   ``MainActorValueBinding``, used on the main actor: the property's `didSet` only ever runs
///   there.
/// - For a ``SendableModel``, a `Sendable` ``ValueBinding``, usable on any thread.
///
/// ```swift
/// let stepper = StepperView(count: model.bindings.count)
/// let width = model.bindings.frame.size.width
/// ```
///
/// The bindings hold the model strongly: a handler the model keeps on one of its own
/// bindings makes a cycle. Use `ValueBinding(weak:_:ifReleased:)` there.
@dynamicMemberLookup
public struct ModelBindings<Model: AnyObject> {
    /// The model the bindings read and write.
    public let model: Model

    /// Creates bindings to `model`'s properties.
    public init(_ model: Model) {
        self.model = model
    }

    /// A main-actor binding to the property at `path`; writes run its `didSet` on the main
    /// actor. Chosen for a model that is not a ``SendableModel``.
    @_disfavoredOverload
    @MainActor
    public subscript<Value>(dynamicMember path: ReferenceWritableKeyPath<Model, Value>) -> MainActorValueBinding<
        Value
    > {
        MainActorValueBinding(model, path)
    }
}

extension ModelBindings: Sendable where Model: Sendable {}

extension ModelBindings where Model: SendableModel {
    /// A binding to the property at `path`, usable on any thread; writes run its `didSet`.
    public subscript<Value>(dynamicMember path: any ReferenceWritableKeyPath<Model, Value> & Sendable) -> ValueBinding<
        Value
    > {
        ValueBinding(model, path)
    }
}
