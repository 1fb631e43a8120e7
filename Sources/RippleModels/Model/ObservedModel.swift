/// Holds a model and projects its bindings, as DidUpdate's `@ObservedState` does:
/// `$viewModel.count` is a `ValueBinding<Int>`.
///
/// ```swift
/// final class CounterView {
///     @ObservedModel var viewModel = CounterModel()
///     lazy var stepper = StepperView(count: $viewModel.count)
/// }
/// ```
@propertyWrapper
public struct ObservedModel<Model: ObservableModel & Sendable>: Sendable {
    /// The model.
    public var wrappedValue: Model

    /// Holds `wrappedValue`.
    public init(wrappedValue: Model) {
        self.wrappedValue = wrappedValue
    }

    /// Bindings to the model's properties.
    public var projectedValue: ModelBindings<Model> {
        ModelBindings(wrappedValue)
    }
}
