/// Holds a model and projects its bindings, as DidUpdate's `@ObservedState` does:
/// `$viewModel.count` binds `viewModel.count`.
///
/// For a main-actor model the bindings are ``MainActorValueBinding``s, used on the main actor;
/// for a ``SendableModel``, ``ValueBinding``s (see ``ModelBindings``).
///
/// ```swift
/// final class CounterView {
///     @ObservedModel var viewModel = CounterModel()
///     lazy var stepper = StepperView(count: $viewModel.count)
/// }
/// ```
@propertyWrapper
public struct ObservedModel<Model: ObservableModel> {
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

extension ObservedModel: Sendable where Model: Sendable {}
