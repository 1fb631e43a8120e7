/// How a read of an `@Observed` model property registers itself.
///
/// A ``ValueBinding`` rooted in a model reads the property through the model (a key path), so
/// the wrapper cannot tell from its arguments which kind of dependency the reader wants.
/// While `readsEveryUpdate` is set, the wrapper's getter also tracks its update counter, so
/// the reader runs on every write, equal writes included (what `didUpdate` promises).
///
/// The mode is a task-local value, so it also reaches a `Computed` whose derivation happens to
/// be evaluated inside it (a model property computed from a `Computed`): that derivation then
/// also tracks the update counters it reads, and re-evaluates on equal writes until its next
/// evaluation outside the mode. Its equality cut-off keeps that invisible to its readers; it
/// only costs evaluations.
///
/// `package`: the storage of `@RippleModel` properties (in `RippleMacros`) reads it too.
package enum _ReadMode {
    @TaskLocal package static var readsEveryUpdate = false

    /// Runs `read` so that `@Observed` properties it reads track every update.
    static func everyUpdate<T>(_ read: () -> T) -> T {
        $readsEveryUpdate.withValue(true, operation: read)
    }
}
