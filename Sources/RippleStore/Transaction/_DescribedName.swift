import Ripple

/// A name made the first time it is read, then kept: for a transaction named after a key path
/// (`Transaction.init(describedBy:file:line:)`), whose description costs far more than the
/// commit it names and is rarely read (by a logger, a tracer, or a subscriber that asks).
///
/// ```swift
/// let name = _DescribedName { [path] in "binding \(path.keyPath)" }
/// name.text  // described now, once
/// ```
final class _DescribedName: @unchecked Sendable {
    /// Makes the name, or `nil` when it cannot be made on the calling thread (see
    /// ``init(onMainActor:)``).
    private let describe: @Sendable () -> String?
    private let lock = _Lock()
    /// Guarded by `lock`.
    private var described: String?

    init(_ describe: @escaping @Sendable () -> String) {
        self.describe = describe
    }

    /// A name described from a value that is not `Sendable`, such as a main-actor reducer's
    /// action: only on the main actor, where the value was made. Read elsewhere before that, the
    /// name is ``offMainActor``, not kept, so that a later read on the main actor describes it.
    init<Value>(onMainActor value: Value, _ describe: @escaping (Value) -> String) {
        let bound = _MainActorBound(value: value, describe: describe)
        self.describe = { _isRunningOnMainActor() ? bound.describe(bound.value) : nil }
    }

    /// What a name to describe on the main actor reads as elsewhere, before it was described.
    static let offMainActor = "send (an action described on the main actor only)"

    /// The name: described by the first read (outside the lock: the description may take
    /// microseconds); a read racing it may describe it too, and the first one kept wins.
    ///
    /// - Complexity: O(1) after the first read.
    var text: String {
        if let text = lock.withLock({ described }) { return text }
        guard let made = describe() else { return Self.offMainActor }
        return lock.withLock {
            if let described { return described }
            described = made
            return made
        }
    }
}

/// A value and its description, used on the main actor only (`_DescribedName.init(onMainActor:_:)`
/// checks the thread before touching either).
private struct _MainActorBound<Value>: @unchecked Sendable {
    let value: Value
    let describe: (Value) -> String
}
