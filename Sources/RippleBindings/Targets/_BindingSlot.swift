import Ripple
import RippleModels

/// The binding a target holds: at most one at a time. Binding again replaces it; the slot's
/// owner (a bindable property) ends it when it is released.
///
/// Also what a two-way binding needs to keep edits and values apart: the path of a user's
/// edit to the model, and whether a value is being applied to the target right now (a control
/// that reports programmatic changes as edits must not have them written back).
final class _BindingSlot<Value: Sendable>: @unchecked Sendable {
    private let lock = _Lock()
    private var subscription: Subscription?
    private var push: _Push<Value>?
    /// What the current binding runs once when it ends (`onUnbind`).
    private var cleanup: (@Sendable () -> Void)?
    /// What `replace` returned for the current binding: cancelling it ends the binding. Kept
    /// here, so that a caller that drops it (the result is discardable) leaves the binding in
    /// place.
    private var handle: Subscription?
    private var applying = 0
    private var generation: UInt64 = 0
    /// Values applied to the target so far, and how many had been when the user's last edit
    /// was taken: the target still shows that edit while they are equal.
    private var applied: UInt64 = 0
    private var appliedAtLastEdit: UInt64 = 0

    /// A binding as the slot holds it: its reaction, the path of the user's edits, the
    /// subscription its caller got, and its cleanup. Each is taken out of the slot once,
    /// under the lock, so a binding is ended (and its cleanup run) exactly once.
    private typealias Binding = (
        subscription: Subscription?, push: _Push<Value>?, handle: Subscription?, cleanup: (@Sendable () -> Void)?
    )

    /// Installs a new binding made by `make` (given the generation that identifies it), and
    /// ends the previous one. Returns the subscription that ends the new binding: the way the
    /// `unbind()` of the property does (a paced edit still waiting is written first), and
    /// only while it is the current binding. `onEnd` runs once when the new binding ends,
    /// however it ends.
    func replace(
        onEnd: (@Sendable () -> Void)? = nil,
        _ make: (UInt64) -> (Subscription, _Push<Value>?)
    ) -> Subscription {
        let id = lock.withLock { () -> UInt64 in
            generation &+= 1
            return generation
        }
        let (created, createdPush) = make(id)
        let handle = Subscription { [weak self] in self?.clear(generation: id) }
        let previous = lock.withLock { () -> Binding in
            guard generation == id else { return (created, createdPush, nil, onEnd) }  // replaced meanwhile
            defer { subscription = created; push = createdPush; self.handle = handle; cleanup = onEnd }
            return (subscription, push, self.handle, cleanup)
        }
        end(previous)
        return handle
    }

    /// Ends the binding of `generation` (or whatever is bound when `nil`).
    func clear(generation expected: UInt64? = nil) {
        let previous = lock.withLock { () -> Binding in
            if let expected, expected != generation { return (nil, nil, nil, nil) }
            generation &+= 1
            defer { subscription = nil; push = nil; handle = nil; cleanup = nil }
            return (subscription, push, handle, cleanup)
        }
        end(previous)
    }

    /// Writes what a pacer still holds, then stops the reaction (in that order: the reaction
    /// still recognizes the flushed edit as its own), then marks the caller's subscription
    /// cancelled (its own cancellation finds the binding ended and does nothing more), then
    /// runs the binding's cleanup (last: it sees the binding ended, and may bind again).
    /// Called with the lock released: the handle's cancellation takes it, and the cleanup is
    /// user code.
    private func end(_ binding: Binding) {
        binding.push?.flush()
        binding.subscription?.cancel()
        binding.handle?.cancel()
        binding.cleanup?()
    }

    var isBound: Bool { lock.withLock { subscription != nil } }

    /// The path of a user's edit, unless a value is being applied to the target; notes that
    /// the target shows the edit being taken (see `controlShowsLastEdit`).
    func takeEdit() -> _Push<Value>? {
        lock.withLock {
            if applying > 0 { return nil }
            appliedAtLastEdit = applied
            return push
        }
    }

    /// Whether no value was applied to the target since the user's last edit was taken: the
    /// target still shows it.
    var controlShowsLastEdit: Bool {
        lock.withLock { applied == appliedAtLastEdit }
    }

    /// Runs `apply` marked as a programmatic change of the target, if the binding of
    /// `generation` is still the current one; returns whether it ran.
    func applying(generation expected: UInt64, _ apply: () -> Void) -> Bool {
        let isCurrent = lock.withLock { () -> Bool in
            guard generation == expected else { return false }
            applying += 1
            return true
        }
        guard isCurrent else { return false }
        defer {
            lock.withLock {
                applying -= 1; applied &+= 1
            }
        }
        apply()
        return true
    }

    deinit {
        push?.flush()
        subscription?.cancel()
        cleanup?()
    }
}
