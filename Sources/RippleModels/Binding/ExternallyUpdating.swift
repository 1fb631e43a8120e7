import Ripple

/// A handle on a ``ValueBinding`` whose handlers ignore the writes made through the handle
/// itself, and hear every other write.
///
/// For a child view that both edits and displays a value: the text field that the user
/// types into should not be told to show the text it just produced, but should follow
/// changes made anywhere else.
///
/// ```swift
/// final class NameField {
///     let name: ExternallyUpdating<String>
///     var observer: Subscription?
///     init(name: ValueBinding<String>, label: Label) {
///         self.name = name.externallyUpdating()
///         observer = self.name.didChange { label.text = $0 }   // changes made elsewhere
///     }
///     func userTyped(_ text: String) { name.value = text }   // not echoed to the label
/// }
/// ```
///
/// It is also a property wrapper, as DidUpdate's was: `$name` observes it.
///
/// ```swift
/// final class NameView {
///     @ExternallyUpdating var name: String
///     init(name: ValueBinding<String>) { _name = ExternallyUpdating(valueProxy: name) }
///     func bind(label: Label) -> Subscription { $name.didChange { label.text = $0 } }
/// }
/// ```
@propertyWrapper
public struct ExternallyUpdating<Value: Sendable>: ObservableValue, Sendable {
    /// The handle's last own write: a serial number, and the value written.
    private struct OwnWrite: Sendable {
        var serial: UInt64
        var value: Value?
    }

    /// The binding the handle reads and writes through.
    public let binding: ValueBinding<Value>
    /// The handle's own writes; a handler that sees it move skips the update it caused.
    private let ownWrites = Stored(OwnWrite(serial: 0, value: nil), equals: nil)

    /// Creates a handle on `binding`.
    public init(_ binding: ValueBinding<Value>) {
        self.binding = binding
    }

    /// Creates a handle on `valueProxy` (DidUpdate's spelling), for `_name = …` in an
    /// initializer.
    public init(valueProxy: ValueBinding<Value>) {
        self.init(valueProxy)
    }

    /// The value, as a property wrapper: reading it reads the binding, writing it writes
    /// through without echoing to this handle's handlers.
    public var wrappedValue: Value {
        get { value }
        nonmutating set { value = newValue }
    }

    /// The handle itself, to observe: `$name.didChange { }`.
    public var projectedValue: ExternallyUpdating<Value> { self }

    /// The current value. Writes made through this property are not echoed to handlers
    /// attached to this handle; handlers attached elsewhere hear them as usual.
    public var value: Value {
        get { binding.value }
        nonmutating set {
            let ownWrites = ownWrites, binding = binding
            writeInOrder {
                ownWrites.update { $0 = OwnWrite(serial: $0.serial &+ 1, value: newValue) }
                binding.value = newValue
            }
        }
    }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { binding._readForUpdate() }

    /// A filter that skips the updates written through this handle.
    ///
    /// An update is the handle's own when the handle wrote since the handler last ran and,
    /// for `Equatable` values, the value is the one it wrote: a write from elsewhere in the
    /// same round (a batch, another thread) is still delivered.
    public func _makeEchoFilter() -> (@Sendable (Value) -> Bool)? {
        let ownWrites = ownWrites
        let isEqual = _equality(for: Value.self)
        let seen = _ReactionState(untracked { ownWrites.value.serial })
        return { new in
            let own = ownWrites.value
            defer { seen.value = own.serial }
            guard own.serial != seen.value else { return false }
            guard let isEqual, let written = own.value else { return true }
            return isEqual(written, new)
        }
    }
}

extension ValueBinding where Value: Sendable {
    /// A handle whose handlers do not hear the writes made through it; see
    /// ``ExternallyUpdating``.
    public func externallyUpdating() -> ExternallyUpdating<Value> {
        ExternallyUpdating(self)
    }
}
