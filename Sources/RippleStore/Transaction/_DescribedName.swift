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
    private let describe: @Sendable () -> String
    private let lock = _Lock()
    /// Guarded by `lock`.
    private var described: String?

    init(_ describe: @escaping @Sendable () -> String) {
        self.describe = describe
    }

    /// The name: described by the first read (outside the lock: the description may take
    /// microseconds); a read racing it may describe it too, and the first one kept wins.
    ///
    /// - Complexity: O(1) after the first read.
    var text: String {
        if let text = lock.withLock({ described }) { return text }
        let made = describe()
        return lock.withLock {
            if let described { return described }
            described = made
            return made
        }
    }
}
