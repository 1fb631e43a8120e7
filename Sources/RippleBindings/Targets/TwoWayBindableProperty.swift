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
/// It binds a model value it can write: from the main actor, a main-actor model's property
/// (`model.bindings.name`, `$model.name`: a `MainActorValueBinding`), read and written only on
/// the main actor (see ``bind(_:_:onUnbind:)-(MainActorValueBinding<Data>,_,_)``); from any
/// thread, a `Stored` or a `ValueBinding`.
///
/// **No echo.** A user's edit written to the model is not applied back to the control, even
/// when the transform is not an exact inverse: a field bound to a `Double` with
/// `.transform({ "\($0)" }, reverse: { Double($0) ?? 0 })` keeps the "1.50" the user typed
/// while the model holds 1.5, and the model is written once per edit. That holds wherever
/// the edit is reported from: inside a `batch`, or from a handler or reaction. A later change
/// of the model from anywhere else is shown as usual, even one made in the same batch as the
/// edit (for `Equatable` values). A value the binding applies to the control is never taken
/// for an edit, even if the control reports it as one.
///
/// **The control and the model agree.** A paced edit (throttled or debounced) written after a
/// change from elsewhere was shown in the control is shown too: the control then holds the
/// model's value, not the change it no longer shows.
///
/// The rules of ``BindableProperty`` hold too: one binding at a time, ended by ``unbind()``,
/// by the release of the property or of its target.
public final class TwoWayBindableProperty<Value: Sendable>: Sendable {
    // Internal, not private: the main-actor forms (`+MainActor`) bind through them too.
    let slot = _BindingSlot<Value>()
    let scheduler: BindingScheduler
    private let get: @Sendable () -> Value?
    let set: @Sendable (Value) -> Bool

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
    /// ```swift
    /// text.bind(ValueBinding(name))
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The model value.
    ///   - onUnbind: Runs once when this binding ends (see ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @discardableResult
    public func bind(_ binding: ValueBinding<Value>, onUnbind: (@Sendable () -> Void)? = nil) -> Subscription {
        bind(binding, .identity, onUnbind: onUnbind)
    }

    /// Keeps the control and `stored` equal.
    ///
    /// ```swift
    /// let name = Stored("Ada")
    /// text.bind(name)
    /// ```
    ///
    /// - Parameters:
    ///   - stored: The model value.
    ///   - onUnbind: Runs once when this binding ends (see ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    @discardableResult
    public func bind(_ stored: Stored<Value>, onUnbind: (@Sendable () -> Void)? = nil) -> Subscription {
        bind(ValueBinding(stored), .identity, onUnbind: onUnbind)
    }

    /// Keeps the control and `stored` equal through `handler`.
    ///
    /// ```swift
    /// text.bind(age, .transform({ String($0) }, reverse: { Int($0) ?? 0 }))
    /// ```
    ///
    /// - Parameters:
    ///   - stored: The model value.
    ///   - handler: The transform both ways, and the pacing of the user's edits.
    ///   - onUnbind: Runs once when this binding ends (see ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    @discardableResult
    public func bind<Data: Sendable>(
        _ stored: Stored<Data>,
        _ handler: BindingHandler<Data, Value>,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription {
        bind(ValueBinding(stored), handler, onUnbind: onUnbind)
    }

    /// Keeps the control and `binding` equal through `handler`: its transform from model to
    /// control, its reverse and its pacing from control to model.
    ///
    /// ```swift
    /// field.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }).debounce(for: .milliseconds(300)))
    /// ```
    ///
    /// **Cleanup.** `onUnbind` (Fisticuffs' extra cleanup) runs exactly once, when this
    /// binding ends, whichever way: ``unbind()``, binding the property again, cancelling the
    /// returned subscription, or the release of the property. Once the control is released,
    /// the binding ends (and the cleanup runs) when it next has a value to show, or with the
    /// property. It runs after the binding has stopped (an edit a throttle or debounce still
    /// held is written to the model first) and with no lock held, so it may use the property,
    /// even bind it again:
    ///
    /// ```swift
    /// let observer = NotificationCenter.default.addObserver(…)   // what the binding set up
    /// text.bind(name, .identity, onUnbind: { NotificationCenter.default.removeObserver(observer) })
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The model value.
    ///   - handler: The transform both ways, and the pacing of the user's edits.
    ///   - onUnbind: Runs once when this binding ends.
    /// - Returns: The binding's subscription: cancel it to end the binding.
    /// - Precondition: `handler` is two-way (made with `transform(_:reverse:)`
    ///   or ``BindingHandler/identity``): the user's edits must have a way back to the model.
    ///   To only show a value, use ``bindOneWay(_:_:)``.
    @discardableResult
    public func bind<Data>(
        _ binding: ValueBinding<Data>,
        _ handler: BindingHandler<Data, Value>,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription {
        guard let makePush = handler.makePush else {
            _bindingsFailure(
                "TwoWayBindableProperty.bind(_:_:onUnbind:): the handler has no reverse transform, so the user's edits of this control could not reach the model. Use .transform(_:reverse:), or bindOneWay(_:_:) to only show the value."
            )
        }
        let forward = handler.forward
        return slot.replace(onEnd: onUnbind) { [slot, scheduler, set] generation in
            let isEqual = _equality(for: Data.self)
            let ownWrites = _OwnWrites<Data>(isComparable: isEqual != nil)
            let push = makePush { [weak slot] data in
                // The write is the echo of an edit only while the control still shows that
                // edit: a value applied since it was taken (a change from elsewhere) makes it
                // a change to show, so that the control and the model agree. (Weak: the slot
                // holds this push; a slot being released flushes it, and shows nothing more.)
                let isOwn = slot?.controlShowsLastEdit ?? true
                writeInOrder {
                    if isOwn { ownWrites.record(data) }
                    binding.value = data
                }
            }
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let seen = _ReactionState<UInt64>(0)
            let subscription = withoutOwner {
                observe {
                    ownWrites.track()
                    let value = binding.value
                    let own = ownWrites.last
                    defer { seen.value = own.serial }
                    if own.serial != seen.value, _isEcho(of: value, written: own.value, isEqual) {
                        // A value still waiting for the scheduler is older than the edit the
                        // control shows and the model now holds: showing it would undo the edit.
                        latest.dropPending()
                        return
                    }
                    latest.send(forward(value))
                }
            }
            return (subscription, push)
        }
    }

    /// Shows `source` (through `handler`) in the control without writing the user's edits
    /// anywhere.
    @discardableResult
    public func bindOneWay<Data>(
        _ source: some ObservableValue<Data> & Sendable, _ handler: BindingHandler<Data, Value>
    ) -> Subscription {
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
        guard let push = slot.takeEdit(), let value = get() else { return }
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

/// The writes a two-way binding made to its model for the user's edits: a serial number, and
/// the last value written, recorded just before the model's write (in the same queued step,
/// inside a reaction or a batch).
///
/// The binding's reaction skips the update when the serial moved since its last run and, for
/// `Equatable` values, the model holds the value written: the echo of the user's own edit,
/// wherever the edit was reported from (a batch or a handler delays the reaction past the
/// write), while a write from elsewhere in the same round (a batch) is shown. Not a `Stored`:
/// the reaction reads it without depending on it, and the value need not be `Sendable`.
///
/// Values that are not `Equatable` are always taken for the echo once the serial moved, so
/// the reaction must see every own write, also one that changed nothing (a model's setter
/// that refused the edit, or a `Stored` that found it equal): else the next change from
/// elsewhere would be taken for its echo, and never shown. For those values the serial is
/// also a `Stored` that the reaction reads (`track()`), written with the model.
final class _OwnWrites<Value>: @unchecked Sendable {
    private let lock = _Lock()
    private var serial: UInt64 = 0
    private var value: Value?
    /// The serial as a value the reaction depends on; `nil` for `Equatable` values.
    private let trackedSerial: Stored<UInt64>?

    /// Creates the record of a binding whose values `isComparable` (`Equatable`) or not.
    init(isComparable: Bool) {
        trackedSerial = isComparable ? nil : Stored(0)
    }

    /// Records a write of `value` (made next, in the same batch or queued step).
    func record(_ value: Value) {
        let recorded = lock.withLock { () -> UInt64 in
            serial &+= 1
            self.value = value
            return serial
        }
        trackedSerial?.value = recorded
    }

    /// Makes the running reaction depend on the own writes, for values that are not
    /// `Equatable`: it then runs after each of them.
    func track() {
        _ = trackedSerial?.value
    }

    /// The last write recorded.
    var last: (serial: UInt64, value: Value?) {
        lock.withLock { (serial, value) }
    }
}

/// Whether the model's `value` is the echo of the binding's last own write, `written` (see
/// `_OwnWrites`): always for values that are not `Equatable`.
func _isEcho<Value>(of value: Value, written: Value?, _ isEqual: (@Sendable (Value, Value) -> Bool)?) -> Bool {
    guard let isEqual, let written else { return true }
    return isEqual(written, value)
}

/// The function that applies values to a target through a scheduler, marked as programmatic,
/// while the binding of `generation` is the current one; it ends that binding when the target
/// is gone.
func _applier<Value: Sendable>(
    slot: _BindingSlot<Value>,
    scheduler: BindingScheduler,
    set: @escaping @Sendable (Value) -> Bool,
    generation: UInt64
) -> _LatestValue<Value> {
    _LatestValue<Value>(scheduler: scheduler) { [weak slot] value in
        guard let slot else { return }
        var alive = true
        // A binding that was replaced or ended shows nothing more: the edit a pacer still
        // held, written to its model when it ended, is not applied over the new binding's value.
        // Untracked: what the setter reads is not a dependency of the binding's reaction.
        guard slot.applying(generation: generation, { alive = untracked { set(value) } }) else { return }
        if !alive { slot.clear(generation: generation) }
    }
}
