import Ripple
import RippleModels

extension BindableProperty {
    /// Shows a main-actor value in the control: now, and after each change, read on the main
    /// actor.
    ///
    /// This is the form main-actor app code uses: a view model's derived values are
    /// `MainActorComputed`s there (``bind(_:)-(ObservableValue<Value>Sendable)`` takes values
    /// any thread may read).
    ///
    /// ```swift
    /// let remaining = MainActorComputed { model.todos.filter { !$0.isDone }.count }
    /// label.ripple.text.bind(remaining, .transform { "\($0) left" })
    /// ```
    ///
    /// - Parameter source: The value to show.
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind(_ source: MainActorComputed<Value>) -> Subscription {
        bind(source, .transform { $0 })
    }

    /// Shows a main-actor value in the control through `handler` (a transform, for example):
    /// now, and after each change, read on the main actor.
    ///
    /// - Parameters:
    ///   - source: The value to show.
    ///   - handler: Turns the value into what the control shows.
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind<Data>(_ source: MainActorComputed<Data>, _ handler: BindingHandler<Data, Value>) -> Subscription {
        _startOnMainActor(read: { source.value }, forward: handler.forward)
    }

    /// Shows a main-actor model's property in the control (one way: the control never writes
    /// it): now, and after each change, read on the main actor.
    ///
    /// ```swift
    /// label.ripple.text.bind(model.bindings.name)
    /// ```
    ///
    /// - Parameter binding: The model's property (`model.bindings.name`, `$model.name`).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind(_ binding: MainActorValueBinding<Value>) -> Subscription {
        bind(binding, .transform { $0 })
    }

    /// Shows a main-actor model's property in the control through `handler` (one way): now,
    /// and after each change, read on the main actor.
    ///
    /// - Parameters:
    ///   - binding: The model's property.
    ///   - handler: Turns the value into what the control shows.
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind<Data>(_ binding: MainActorValueBinding<Data>, _ handler: BindingHandler<Data, Value>)
        -> Subscription
    {
        let source = _MainActorBindingBox(binding)
        return _startOnMainActor(read: { source.binding.value }, forward: handler.forward)
    }

    /// Binds the control to what `read` returns, read in a main-actor reaction.
    @MainActor
    func _startOnMainActor<Data>(
        read: @escaping @MainActor () -> Data, forward: @escaping @Sendable (Data) -> Value
    ) -> Subscription {
        slot.replace { [slot, scheduler, set] generation in
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let subscription = withoutOwner {
                observeOnMainActor { latest.send(forward(read())) }
            }
            return (subscription, nil)
        }
    }
}
