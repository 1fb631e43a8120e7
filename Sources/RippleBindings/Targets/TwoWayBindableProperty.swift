import Ripple
import RippleModels

/// A property of a control that the user edits, kept in sync with a model value both ways: a
/// text field's text, a switch's state, a slider's value.
///
/// It is described by a getter, a setter and a change signal: the adapter (or your code)
/// calls ``userDidEdit()`` when the user changed the control, and the binding reads the
/// control with the getter and writes the value to the model.
///
/// ```swift
/// final class Field: @unchecked Sendable { var text = "" }
/// let field = Field()
/// let text = TwoWayBindableProperty(field, get: { $0.text }, set: { $0.text = $1 })
///
/// let name = Stored("Ada")
/// text.bind(name)            // field.text == "Ada"
/// field.text = "Grace"       // the user types…
/// text.userDidEdit()         // …and name.value == "Grace"
/// ```
///
/// **No echo.** A user's edit written to the model is not applied back to the control, even
/// when the transform is not an exact inverse: a field bound to a `Double` with
/// `.transform({ "\($0)" }, reverse: { Double($0) ?? 0 })` keeps the "1.50" the user typed
/// while the model holds 1.5, and the model is written once per edit. A later change of
/// the model from anywhere else is shown as usual. A value the binding applies to the
/// control is never taken for an edit, even if the control reports it as one.
///
/// The rules of ``BindableProperty`` hold too: one binding at a time, ended by ``unbind()``,
/// by the release of the property or of its target.
public final class TwoWayBindableProperty<Value: Sendable>: Sendable {
    private let slot = _BindingSlot<Value>()
    private let scheduler: BindingScheduler
    private let get: @Sendable () -> Value?
    private let set: @Sendable (Value) -> Bool

    /// Creates a two-way property from a getter and a setter.
    ///
    /// - Parameters:
    ///   - scheduler: Where values are applied: ``BindingScheduler/immediate`` by default.
    ///   - get: Reads the control; `nil` when it is gone.
    ///   - set: Applies a value to the control; returns `false` when it is gone, which ends the
    ///     binding.
    public init(
        on scheduler: BindingScheduler = .immediate,
        get: @escaping @Sendable () -> Value?,
        set: @escaping @Sendable (Value) -> Bool
    ) {
        self.scheduler = scheduler
        self.get = get
        self.set = set
    }

    /// Creates a two-way property of `target`, which it holds weakly.
    ///
    /// - Parameters:
    ///   - target: The control.
    ///   - scheduler: Where values are applied: ``BindingScheduler/immediate`` by default.
    ///   - get: Reads the control.
    ///   - set: Applies a value to the control.
    public convenience init<Target: AnyObject & Sendable>(
        _ target: Target,
        on scheduler: BindingScheduler = .immediate,
        get: @escaping @Sendable (Target) -> Value,
        set: @escaping @Sendable (Target, Value) -> Void
    ) {
        self.init(
            on: scheduler,
            get: { [weak target] in target.map(get) },
            set: { [weak target] value in
                guard let target else { return false }
                set(target, value)
                return true
            }
        )
    }

    /// Keeps the control and `binding` equal: the control shows the model, and the user's
    /// edits are written to the model.
    ///
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @discardableResult
    public func bind(_ binding: ValueBinding<Value>) -> Subscription {
        bind(binding, .identity)
    }

    /// Keeps the control and `stored` equal.
    @discardableResult
    public func bind(_ stored: Stored<Value>) -> Subscription {
        bind(ValueBinding(stored), .identity)
    }

    /// Keeps the control and `stored` equal through `handler`.
    @discardableResult
    public func bind<Data: Sendable>(_ stored: Stored<Data>, _ handler: BindingHandler<Data, Value>) -> Subscription {
        bind(ValueBinding(stored), handler)
    }

    /// Keeps the control and `binding` equal through `handler`: its transform from model to
    /// control, its reverse and its pacing from control to model.
    ///
    /// ```swift
    /// field.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }).debounce(for: .milliseconds(300)))
    /// ```
    ///
    /// - Precondition: `handler` is two-way (made with `transform(_:reverse:)`
    ///   or ``BindingHandler/identity``): the user's edits must have a way back to the model.
    ///   To only show a value, use ``bindOneWay(_:_:)``.
    @discardableResult
    public func bind<Data>(_ binding: ValueBinding<Data>, _ handler: BindingHandler<Data, Value>) -> Subscription {
        guard let makePush = handler.makePush else {
            _bindingsFailure(
                "TwoWayBindableProperty.bind(_:_:): the handler has no reverse transform, so the user's edits of this control could not reach the model. Use .transform(_:reverse:), or bindOneWay(_:_:) to only show the value."
            )
        }
        let forward = handler.forward
        return slot.replace { [slot, scheduler, set] generation in
            let token = _EchoToken()
            let id = ObjectIdentifier(token)
            let push = makePush { data in
                withExtendedLifetime(token) {
                    _EchoScope.$binding.withValue(id) { binding.value = data }
                }
            }
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let subscription = withoutOwner {
                observe {
                    let value = binding.value
                    if _EchoScope.binding == id { return }
                    latest.send(forward(value))
                }
            }
            return (subscription, push)
        }
    }

    /// Shows `source` (through `handler`) in the control without writing the user's edits
    /// anywhere.
    @discardableResult
    public func bindOneWay<Data>(_ source: some ObservableValue<Data> & Sendable, _ handler: BindingHandler<Data, Value>) -> Subscription {
        let forward = handler.forward
        return slot.replace { [slot, scheduler, set] generation in
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let subscription = withoutOwner { observe { latest.send(forward(source.value)) } }
            return (subscription, nil)
        }
    }

    /// Shows `source` in the control without writing the user's edits anywhere.
    @discardableResult
    public func bindOneWay(_ source: some ObservableValue<Value> & Sendable) -> Subscription {
        bindOneWay(source, .transform { $0 })
    }

    /// Tells the binding that the user changed the control: it reads the control and writes
    /// the value to the model (through the handler's reverse and pacing).
    ///
    /// The adapters call it from the control's change event. A call made while the binding is
    /// applying a value to the control is ignored.
    public func userDidEdit() {
        guard let push = slot.pushForEdit, let value = get() else { return }
        push.send(value)
    }

    /// Ends the current binding. An edit still held by a throttle or debounce is written to
    /// the model first.
    public func unbind() {
        slot.clear()
    }

    /// Whether a binding is in place.
    public var isBound: Bool { slot.isBound }
}

/// Identifies one two-way binding's own writes (see `_EchoScope`).
final class _EchoToken: Sendable {}

/// The function that applies values to a target through a scheduler, marked as programmatic,
/// ending the binding of `generation` when the target is gone.
func _applier<Value: Sendable>(
    slot: _BindingSlot<Value>,
    scheduler: BindingScheduler,
    set: @escaping @Sendable (Value) -> Bool,
    generation: UInt64
) -> _LatestValue<Value> {
    _LatestValue<Value>(scheduler: scheduler) { [weak slot] value in
        guard let slot else { return }
        var alive = true
        slot.applying { alive = set(value) }
        if !alive { slot.clear(generation: generation) }
    }
}
