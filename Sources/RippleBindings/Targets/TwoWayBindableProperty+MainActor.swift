import Ripple
import RippleModels

extension TwoWayBindableProperty {
    /// Keeps the control and a main-actor model's property equal: the control shows the
    /// property, and the user's edits are written to it, on the main actor.
    ///
    /// This is the form main-actor app code uses: a model that is not a `SendableModel` (any
    /// model in an app target, whose default isolation is the main actor) hands out
    /// `MainActorValueBinding`s as `model.bindings.name` and `$model.name`.
    ///
    /// ```swift
    /// textField.ripple.text.bind(model.bindings.name)
    /// ```
    ///
    /// Everything ``bind(_:_:onUnbind:)-(MainActorValueBinding<Data>,_,_)`` says holds.
    ///
    /// - Parameters:
    ///   - binding: The model's property.
    ///   - onUnbind: Runs once when this binding ends (see
    ///     ``bind(_:_:onUnbind:)-(ValueBinding<Data>,_,_)``).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind(_ binding: MainActorValueBinding<Value>, onUnbind: (@Sendable () -> Void)? = nil) -> Subscription {
        bind(binding, .identity, onUnbind: onUnbind)
    }

    /// Keeps the control and a main-actor model's property equal through `handler`: its
    /// transform from model to control, its reverse and its pacing from control to model.
    ///
    /// ```swift
    /// priceField.ripple.text.bind(
    ///     model.bindings.price,
    ///     .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }).debounce(for: .milliseconds(300)))
    /// ```
    ///
    /// The property is read and written only on the main actor, so its `didSet` (and any
    /// main-actor setter) runs there: a reaction on the main actor shows it in the control, and
    /// an edit reaches it at once when reported on the main actor (as the UIKit and AppKit
    /// adapters report edits), otherwise (a throttle's or debounce's timer) from the main
    /// actor's queue, edits in the order the user made them. The guarantees of
    /// ``TwoWayBindableProperty`` hold as for a `ValueBinding`: no echo of the user's edit, the
    /// control and the model agree, `onUnbind` runs once when the binding ends, and ending it
    /// writes an edit a pacer still holds (at once when it ends on the main actor).
    ///
    /// - Parameters:
    ///   - binding: The model's property.
    ///   - handler: The transform both ways, and the pacing of the user's edits.
    ///   - onUnbind: Runs once when this binding ends, on the thread that ends it.
    /// - Returns: The binding's subscription: cancel it to end the binding.
    /// - Precondition: `handler` is two-way (made with `transform(_:reverse:)` or
    ///   ``BindingHandler/identity``).
    @MainActor
    @discardableResult
    public func bind<Data: Sendable>(
        _ binding: MainActorValueBinding<Data>,
        _ handler: BindingHandler<Data, Value>,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription {
        guard let makePush = handler.makePush else {
            _bindingsFailure(
                "TwoWayBindableProperty.bind(_:_:onUnbind:): the handler has no reverse transform, so the user's edits of this control could not reach the model. Use .transform(_:reverse:), or bindOneWay(_:_:) to only show the value."
            )
        }
        let forward = handler.forward
        let target = _MainActorBindingBox(binding)
        return slot.replace(onEnd: onUnbind) { [slot, scheduler, set] generation in
            let isEqual = _equality(for: Data.self)
            let ownWrites = _OwnWrites<Data>(isComparable: isEqual != nil)
            // The model's writes, on the main actor, in the order the edits were taken.
            let writes = _InOrder<(data: Data, isOwn: Bool)>(scheduler: .mainActor) { write in
                MainActor.assumeIsolated {
                    writeInOrder {
                        if write.isOwn { ownWrites.record(write.data) }
                        target.binding.value = write.data
                    }
                }
            }
            let push = makePush { [weak slot] data in
                // An echo only while the control still shows the edit (see the `ValueBinding` form).
                writes.send((data, slot?.controlShowsLastEdit ?? true))
            }
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let seen = _ReactionState<UInt64>(0)
            let subscription = withoutOwner {
                observeOnMainActor {
                    ownWrites.track()
                    let value = target.binding.value
                    let own = ownWrites.last
                    defer { seen.value = own.serial }
                    if own.serial != seen.value, _isEcho(of: value, written: own.value, isEqual) { return }
                    latest.send(forward(value))
                }
            }
            return (subscription, push)
        }
    }

    /// Keeps an optional control (a text field's `String?` text) and a main-actor model's
    /// property that is never `nil` equal; a `nil` the user leaves in the control is written as
    /// `defaultValue`.
    ///
    /// ```swift
    /// textField.ripple.text.bind(model.bindings.name, default: "")
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The model's property.
    ///   - defaultValue: What the model gets when the user leaves the control `nil`.
    ///   - onUnbind: Runs once when this binding ends (see
    ///     ``bind(_:_:onUnbind:)-(MainActorValueBinding<Data>,_,_)``).
    /// - Returns: The binding's subscription: cancel it to end the binding.
    @MainActor
    @discardableResult
    public func bind<Wrapped: Sendable>(
        _ binding: MainActorValueBinding<Wrapped>,
        default defaultValue: Wrapped,
        onUnbind: (@Sendable () -> Void)? = nil
    ) -> Subscription where Value == Wrapped? {
        bind(binding, .transform({ Optional($0) }, reverse: { $0 ?? defaultValue }), onUnbind: onUnbind)
    }
}

/// A main-actor binding, held where `Sendable` code (a binding's write path) passes it on to
/// the main actor: only read there.
@MainActor
final class _MainActorBindingBox<Value> {
    let binding: MainActorValueBinding<Value>
    init(_ binding: MainActorValueBinding<Value>) { self.binding = binding }
}
