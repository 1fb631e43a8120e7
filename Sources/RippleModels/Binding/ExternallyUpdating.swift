import Ripple

/// A handle on a ``Binding`` whose handlers ignore the writes made through the handle
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
///     init(name: Binding<String>) {
///         self.name = name.externallyUpdating()
///         observer = self.name.didChange { [weak self] in self?.display($0) }
///     }
///     func userTyped(_ text: String) { name.value = text }   // display(_:) is not called
///     func display(_ text: String) { }
/// }
/// ```
public struct ExternallyUpdating<Value>: ObservableValue, Sendable {
    /// The binding the handle reads and writes through.
    public let binding: Binding<Value>
    /// Counts the handle's own writes; handlers that see it move skip that update.
    private let ownWrites = Stored(UInt64(0))

    /// Creates a handle on `binding`.
    public init(_ binding: Binding<Value>) {
        self.binding = binding
    }

    /// The current value. Writes made through this property are not echoed to handlers
    /// attached to this handle; handlers attached elsewhere hear them as usual.
    public var value: Value {
        get { binding.value }
        nonmutating set {
            let ownWrites = ownWrites
            batch {
                ownWrites.update { $0 &+= 1 }
                binding.value = newValue
            }
        }
    }

    /// Reads the value so that the reader depends on every update of the source.
    public func _readForUpdate() -> Value { binding._readForUpdate() }

    /// A filter that skips the updates written through this handle.
    public func _makeEchoFilter() -> (@Sendable () -> Bool)? {
        let ownWrites = ownWrites
        let seen = _ReactionState(untracked { ownWrites.value })
        return {
            let current = ownWrites.value
            defer { seen.value = current }
            return current != seen.value
        }
    }
}

extension Binding {
    /// A handle whose handlers do not hear the writes made through it; see
    /// ``ExternallyUpdating``.
    public func externallyUpdating() -> ExternallyUpdating<Value> {
        ExternallyUpdating(self)
    }
}
