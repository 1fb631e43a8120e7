import _RippleThread

/// How a read of an `@Observed` model property registers itself.
///
/// A ``ValueBinding`` rooted in a model reads the property through the model (a key path), so
/// the wrapper cannot tell from its arguments which kind of dependency the reader wants.
/// While `readsEveryUpdate` is set, the wrapper's getter also tracks its update counter, so
/// the reader runs on every write, equal writes included (what `didUpdate` promises).
///
/// The mode is a task-local value, so it also reaches a `Computed` whose derivation happens to
/// be evaluated inside it on the same thread (a model property computed from a `Computed`):
/// that derivation then also tracks the update counters it reads, and re-evaluates on equal
/// writes until its next evaluation outside the mode. Its equality cut-off keeps that invisible
/// to its readers; it only costs evaluations. (A derivation nested so deep that it is evaluated
/// on a helper thread with a fresh stack does not see the task-local value.)
///
/// Every read of a model property asks for the mode, and looking up a task-local value cost
/// about 85 of a read's 528 instructions. So a count of the scopes open on all threads is
/// checked first, one load: while it is zero (the common case), no read is in the mode and the
/// task-local value is not looked up. A thread sees its own scope's count in program order. A
/// task created inside a scope inherits the task-local value and may outlive the scope; its
/// reads are then in the mode while any thread has a scope open, and out of it otherwise. That
/// can only change whether a derivation it evaluates re-evaluates on equal writes, which its
/// equality cut-off hides (see above).
///
/// `package`: the storage of `@RippleModel` properties (in `RippleMacros`) reads it too.
@usableFromInline
package enum _ReadMode {
    /// Whether reads made now track every update (see the type's discussion). Called, not
    /// inlined, by the inlined accessors of model properties.
    @usableFromInline
    package static var readsEveryUpdate: Bool {
        _ripple_relaxed_load(openScopes) != 0 && isInScope
    }

    @TaskLocal private static var isInScope = false

    /// The scopes of ``everyUpdate(_:)`` open now, on every thread. A thread's own increment is
    /// seen by its own reads, in program order: relaxed atomics are enough.
    private nonisolated(unsafe) static let openScopes: UnsafeMutablePointer<UInt> = {
        let word = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()

    /// Runs `read` so that `@Observed` properties it reads track every update.
    static func everyUpdate<T>(_ read: () -> T) -> T {
        _ripple_relaxed_add(openScopes, 1)
        defer { _ripple_relaxed_add(openScopes, -1) }
        return $isInScope.withValue(true, operation: read)
    }
}
