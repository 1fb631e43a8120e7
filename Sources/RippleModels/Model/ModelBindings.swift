/// Two-way bindings to the properties of a model, looked up by name:
/// `bindings.count` is a `ValueBinding<Int>` for `model.count`.
///
/// You get one from ``ObservableModel/bindings`` or as the projected value of
/// ``ObservedModel`` (`$model`).
///
/// ```swift
/// let stepper = StepperView(count: model.bindings.count)
/// let width: ValueBinding<Double> = model.bindings.frame.size.width
/// ```
///
/// The bindings hold the model strongly: a handler the model keeps on one of its own
/// bindings makes a cycle. Use `ValueBinding(weak:_:ifReleased:)` there.
@dynamicMemberLookup
public struct ModelBindings<Model: AnyObject & Sendable>: Sendable {
    /// The model the bindings read and write.
    public let model: Model

    /// Creates bindings to `model`'s properties.
    public init(_ model: Model) {
        self.model = model
    }

    /// A binding to the property at `path`; writes run its `didSet`.
    public subscript<Value>(dynamicMember path: any ReferenceWritableKeyPath<Model, Value> & Sendable) -> ValueBinding<
        Value
    > {
        ValueBinding(model, path)
    }
}
