import Ripple

/// The trace names of `@Observed` properties (`TodoList.items`), by storage key path, made once
/// per property of a model type rather than once per model.
///
/// Naming a property describes its storage key path and its model's type: about 24 000
/// instructions, paid by every model's first access to each property (a list of a thousand
/// rows of three properties spent 70 ms of a Linux run on it). The names of a type's
/// properties do not change, so the first model of the type names them for all the others.
///
/// ```swift
/// let name = _PropertyNames.shared.name(for: storagePath) { Observed<Int>.traceName(...) }
/// ```
final class _PropertyNames: @unchecked Sendable {
    /// The names made so far, for every model type.
    static let shared = _PropertyNames()

    private let lock = _Lock()
    /// Guarded by `lock`. `nil` values are kept too: a key path that does not spell its property.
    private var names: [AnyKeyPath: String?] = [:]

    /// The name kept for `storagePath`: `nil` if none was made yet, `.some(nil)` for a key path
    /// that spells no property (for tests).
    func kept(for storagePath: AnyKeyPath) -> String?? {
        lock.withLock { names[storagePath] }
    }

    /// The name kept for `storagePath`, else `make()`'s, kept. `make` runs without the lock: two
    /// threads naming the same property first may both make it, and the first kept wins.
    ///
    /// - Complexity: O(1) on average once the property was named, plus hashing the key path.
    func name(for storagePath: AnyKeyPath, _ make: () -> String?) -> String? {
        if let kept = lock.withLock({ names[storagePath] }) { return kept }
        let made = make()
        return lock.withLock {
            if let kept = names[storagePath] { return kept }
            names[storagePath] = .some(made)
            return made
        }
    }
}
