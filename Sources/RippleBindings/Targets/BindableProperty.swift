import Ripple
import RippleModels

/// A property of a control that a binding keeps equal to a Ripple value: a label's text, a
/// button's enabled state (Fisticuffs' `b_text`, `b_enabled`).
///
/// A bindable property is platform-neutral: a setter and a ``BindingScheduler``. The UIKit
/// and AppKit adapters make one per control property (`label.ripple.text`), and you can make
/// your own for any object:
///
/// ```swift
/// final class Badge: @unchecked Sendable { var text = "" }
/// let badge = Badge()
/// let badgeText = BindableProperty(badge) { badge, text in badge.text = text }
///
/// let unread = Stored(3)
/// badgeText.bind(unread, .transform { "\($0) unread" })   // badge.text == "3 unread"
/// unread.value = 4                                         // badge.text == "4 unread"
/// ```
///
/// A property holds one binding at a time: binding again replaces the previous one. The
/// binding ends when you call ``unbind()`` or cancel the subscription that `bind` returns,
/// when the property is released (the adapters keep it as long as the control), or when
/// the target it was made with is released. It never keeps the target alive.
///
/// Each change reaches the target once, with the value of a consistent graph; values that
/// arrive faster than the scheduler runs are coalesced to the newest.
public final class BindableProperty<Value: Sendable>: Sendable {
    let slot = _BindingSlot<Value>()
    let scheduler: BindingScheduler
    let set: @Sendable (Value) -> Bool

    /// Creates a bindable property that applies values with `set`.
    ///
    /// - Parameters:
    ///   - scheduler: Where values are applied: ``BindingScheduler/immediate`` by default.
    ///   - set: Applies a value to the target; returns `false` when the target is gone, which
    ///     ends the binding.
    public init(on scheduler: BindingScheduler = .immediate, set: @escaping @Sendable (Value) -> Bool) {
        self.scheduler = scheduler
        self.set = set
    }

    /// Creates a bindable property of `target`, which it holds weakly: once `target` is
    /// released, the binding ends.
    ///
    /// - Parameters:
    ///   - target: The object that shows the value.
    ///   - scheduler: Where values are applied: ``BindingScheduler/immediate`` by default.
    ///   - set: Applies a value to the target.
    public convenience init<Target: AnyObject & Sendable>(
        _ target: Target,
        on scheduler: BindingScheduler = .immediate,
        set: @escaping @Sendable (Target, Value) -> Void
    ) {
        self.init(on: scheduler) { [weak target] value in
            guard let target else { return false }
            set(target, value)
            return true
        }
    }

    /// Keeps the target equal to `source`, from now on.
    ///
    /// ```swift
    /// title.bind(viewModel.title)
    /// ```
    ///
    /// - Returns: The binding's subscription: cancel it to end the binding. The property
    ///   keeps the binding alive; you need not keep the subscription.
    @discardableResult
    public func bind(_ source: some ObservableValue<Value> & Sendable) -> Subscription {
        bind(source, .transform { $0 })
    }

    /// Keeps the target equal to `handler`'s transform of `source`.
    ///
    /// ```swift
    /// title.bind(count, .transform { "\($0) items" })
    /// ```
    ///
    /// Reads inside the transform are tracked too.
    @discardableResult
    public func bind<Data>(_ source: some ObservableValue<Data> & Sendable, _ handler: BindingHandler<Data, Value>)
        -> Subscription
    {
        start(read: { source.value }, forward: handler.forward)
    }

    /// Keeps an optional property equal to a value that is never `nil`.
    @discardableResult
    public func bind<Wrapped>(_ source: some ObservableValue<Wrapped> & Sendable) -> Subscription
    where Value == Wrapped? {
        bind(source, .transform { Optional($0) })
    }

    /// Keeps the target equal to what `compute` returns: a computed value of this binding
    /// alone, whose reads are tracked (Fisticuffs' `bind { }`).
    ///
    /// ```swift
    /// greeting.bind { "Hello, \(firstName.value) \(lastName.value)" }
    /// ```
    @discardableResult
    public func bind(_ compute: @escaping @Sendable () -> Value) -> Subscription {
        let computed = Computed(compute)
        return start(read: { computed.value }, forward: { $0 })
    }

    /// Ends the current binding; the target keeps the value it shows.
    public func unbind() {
        slot.clear()
    }

    /// Whether a binding is in place.
    public var isBound: Bool { slot.isBound }

    /// Starts a binding whose reaction reads with `read` and applies `forward` of it.
    private func start<Data>(read: @escaping @Sendable () -> Data, forward: @escaping @Sendable (Data) -> Value)
        -> Subscription
    {
        slot.replace { [slot, scheduler, set] generation in
            let latest = _applier(slot: slot, scheduler: scheduler, set: set, generation: generation)
            let subscription = withoutOwner {
                observe { latest.send(forward(read())) }
            }
            return (subscription, nil)
        }
    }
}
