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
    private var applying = 0
    private var generation: UInt64 = 0

    /// Installs a new binding made by `make` (given the generation that identifies it), and
    /// ends the previous one.
    func replace(_ make: (UInt64) -> (Subscription, _Push<Value>?)) -> Subscription {
        let id = lock.withLock { () -> UInt64 in
            generation &+= 1
            return generation
        }
        let (created, createdPush) = make(id)
        let previous = lock.withLock { () -> (Subscription?, _Push<Value>?) in
            guard generation == id else { return (created, createdPush) }   // replaced meanwhile
            defer { subscription = created; push = createdPush }
            return (subscription, push)
        }
        end(previous)
        return created
    }

    /// Ends the binding of `generation` (or whatever is bound when `nil`).
    func clear(generation expected: UInt64? = nil) {
        let previous = lock.withLock { () -> (Subscription?, _Push<Value>?) in
            if let expected, expected != generation { return (nil, nil) }
            generation &+= 1
            defer { subscription = nil; push = nil }
            return (subscription, push)
        }
        end(previous)
    }

    /// Writes what a pacer still holds, then stops the reaction (in that order: the reaction
    /// still recognizes the flushed edit as its own).
    private func end(_ binding: (Subscription?, _Push<Value>?)) {
        binding.1?.flush()
        binding.0?.cancel()
    }

    var isBound: Bool { lock.withLock { subscription != nil } }

    /// The path of a user's edit, unless a value is being applied to the target.
    var pushForEdit: _Push<Value>? {
        lock.withLock { applying > 0 ? nil : push }
    }

    /// Runs `apply` marked as a programmatic change of the target.
    func applying(_ apply: () -> Void) {
        lock.withLock { applying += 1 }
        defer { lock.withLock { applying -= 1 } }
        apply()
    }

    deinit {
        push?.flush()
        subscription?.cancel()
    }
}

/// Marks a write to the model made by a two-way binding, so that its own reaction, run on
/// this thread by that write, does not apply the value back to the target (an echo).
enum _EchoScope {
    @TaskLocal static var binding: ObjectIdentifier?
}
