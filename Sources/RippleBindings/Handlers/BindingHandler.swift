/// How a binding turns a model value into a control's value, and (for two-way bindings) a
/// user's edit back into a model value: transforms, and the pacing of what the user types.
///
/// Handlers compose by chaining, from the model's side to the control's:
///
/// ```swift
/// // A Double shown as text; what the user types reaches the model 300 ms after they stop.
/// field.text.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 })
///     .debounce(for: .milliseconds(300)))
/// ```
///
/// - `transform(_:)`: one way, model to control.
/// - `transform(_:reverse:)`: both ways; `reverse` need not be an exact inverse (a two-way
///   binding never echoes a user's edit back to the control, see ``TwoWayBindableProperty``).
/// - ``throttle(for:clock:)`` and ``debounce(for:clock:)``: pace the user's edits on their
///   way to the model; values from the model are never delayed.
/// - ``replacingNil(with:)``: shows a default for a `nil` model value.
///
/// A handler is a description: each binding made with it gets its own timers.
public struct BindingHandler<DataValue, PropertyValue>: Sendable {
    /// Model to control.
    let forward: @Sendable (DataValue) -> PropertyValue
    /// Builds, for one binding, the path of a user's edit to the model, given the function that
    /// writes the model; `nil` for a handler that only goes one way.
    let makePush: _MakePush<DataValue, PropertyValue>?

    init(
        forward: @escaping @Sendable (DataValue) -> PropertyValue,
        makePush: _MakePush<DataValue, PropertyValue>?
    ) {
        self.forward = forward
        self.makePush = makePush
    }

    /// Whether the handler can write a user's edit back to the model.
    public var isTwoWay: Bool { makePush != nil }

    /// A one-way handler that shows `transform` of the model value.
    ///
    /// ```swift
    /// label.text.bind(count, .transform { "\($0) items" })
    /// ```
    public static func transform(_ transform: @escaping @Sendable (DataValue) -> PropertyValue) -> BindingHandler {
        BindingHandler(forward: transform, makePush: nil)
    }

    /// A two-way handler: `transform` from model to control, `reverse` from a user's edit to
    /// the model.
    ///
    /// ```swift
    /// field.text.bind(age, .transform({ String($0) }, reverse: { Int($0) ?? 0 }))
    /// ```
    public static func transform(
        _ transform: @escaping @Sendable (DataValue) -> PropertyValue,
        reverse: @escaping @Sendable (PropertyValue) -> DataValue
    ) -> BindingHandler {
        BindingHandler(forward: transform) { write in _Push { write(reverse($0)) } }
    }

    /// This handler followed by `next`, one way.
    public func transform<Next>(_ next: @escaping @Sendable (PropertyValue) -> Next) -> BindingHandler<DataValue, Next>
    {
        let forward = self.forward
        return BindingHandler<DataValue, Next>(forward: { next(forward($0)) }, makePush: nil)
    }

    /// This handler followed by `next` and its `reverse`. The result is two-way when this
    /// handler is.
    public func transform<Next>(
        _ next: @escaping @Sendable (PropertyValue) -> Next,
        reverse: @escaping @Sendable (Next) -> PropertyValue
    ) -> BindingHandler<DataValue, Next> {
        let forward = self.forward
        var push: _MakePush<DataValue, Next>?
        if let make = makePush {
            push = { write in
                let inner = make(write)
                return _Push(then: inner) { inner.send(reverse($0)) }
            }
        }
        return BindingHandler<DataValue, Next>(forward: { next(forward($0)) }, makePush: push)
    }
}

extension BindingHandler where DataValue == PropertyValue {
    /// Shows the model value as it is, and writes a user's edit back as it is.
    public static var identity: BindingHandler {
        BindingHandler(forward: { $0 }) { write in _Push { write($0) } }
    }
}

extension BindingHandler {
    /// This handler, showing `replacement` where the control would get `nil`.
    ///
    /// ```swift
    /// label.text.bind(nickname, .identity.replacingNil(with: "Anonymous"))
    /// ```
    public func replacingNil<Wrapped>(with replacement: Wrapped) -> BindingHandler<DataValue, Wrapped>
    where PropertyValue == Wrapped?, Wrapped: Sendable {
        transform({ $0 ?? replacement }, reverse: { Optional($0) })
    }
}

/// Builds one binding's path from a user's edit to the model, given the function that writes
/// the model.
typealias _MakePush<DataValue, PropertyValue> =
    @Sendable (_ write: @escaping @Sendable (DataValue) -> Void) -> _Push<PropertyValue>

/// One binding's path from a user's edit to the model: a function, and the pacers on the way
/// (flushed when the binding ends, so that an edit the user made is never dropped).
final class _Push<Value>: Sendable {
    private let sendValue: @Sendable (Value) -> Void
    private let flushPending: @Sendable () -> Void

    init(_ send: @escaping @Sendable (Value) -> Void) {
        sendValue = send
        flushPending = {}
    }

    /// A stage in front of `next`: flushing it flushes `next` too.
    init(
        then next: _Push<some Any>, flush: @escaping @Sendable () -> Void = {},
        _ send: @escaping @Sendable (Value) -> Void
    ) {
        sendValue = send
        flushPending = {
            flush()
            next.flush()
        }
    }

    func send(_ value: Value) { sendValue(value) }

    /// Sends at once what a pacer on the way still holds.
    func flush() { flushPending() }
}
