import Ripple
import RippleModels

extension TwoWayBindableProperty {
    /// Keeps an optional control (a text field's `String?` text) and a model value that is
    /// never `nil` equal: the control shows the model, and a `nil` the user leaves in the
    /// control is written to the model as `defaultValue`.
    ///
    /// ```swift
    /// let name = Stored("Ada")
    /// textField.ripple.text.bind(name, default: "")    // a cleared field writes ""
    /// ```
    ///
    /// The control keeps the `nil` the user left (a user's edit is never replaced by its echo,
    /// see ``TwoWayBindableProperty``); a later change of the model is shown as usual.
    ///
    /// - Parameters:
    ///   - stored: The model value.
    ///   - defaultValue: What the model gets when the user leaves the control `nil`.
    ///   - onUnbind: Runs once when this binding ends (see ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @discardableResult
    public func bind<Wrapped: Sendable>(
        _ stored: Stored<Wrapped>,
        default defaultValue: Wrapped,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription where Value == Wrapped? {
        bind(ValueBinding(stored), default: defaultValue, onUnbind: onUnbind)
    }

    /// Keeps an optional control and a model binding that is never `nil` equal; a `nil` the
    /// user leaves in the control is written as `defaultValue`.
    ///
    /// ```swift
    /// textField.ripple.text.bind(ValueBinding(name), default: "")
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The model value.
    ///   - defaultValue: What the model gets when the user leaves the control `nil`.
    ///   - onUnbind: Runs once when this binding ends (see ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @discardableResult
    public func bind<Wrapped: Sendable>(
        _ binding: ValueBinding<Wrapped>,
        default defaultValue: Wrapped,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription where Value == Wrapped? {
        bind(binding, .transform({ Optional($0) }, reverse: { $0 ?? defaultValue }), onUnbind: onUnbind)
    }

    /// Shows a value that is never `nil` in an optional control, without writing the user's
    /// edits anywhere.
    ///
    /// ```swift
    /// textField.ripple.text.bindOneWay(title)    // title: Stored<String>
    /// ```
    ///
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @discardableResult
    public func bindOneWay<Wrapped>(_ source: some ObservableValue<Wrapped> & Sendable) -> Subscription
    where Value == Wrapped? {
        bindOneWay(source, .transform { Optional($0) })
    }
}
