import Observation

/// Runs `body` and makes what it reads of Observation models (`@Observable` properties) a
/// dependency of the current derivation or reaction, as Ripple values always are.
///
/// Ripple tracks its own values by itself. Wrap the reads of `@Observable` models (Apple's
/// Observation framework) in `tracked { }`, and a change of any property read there invalidates
/// the ``Computed`` value whose derivation read it, or runs the reaction again:
///
/// ```swift
/// @Observable final class Settings: @unchecked Sendable { var scale = 1.0 }
///
/// let settings = Settings()
/// let size = Stored(10.0)
/// let scaled = Computed { tracked { settings.scale } * size.value }
/// let log = observe { print(tracked { settings.scale }) }   // prints 1.0
///
/// settings.scale = 2          // `scaled` is stale at once; the reaction will print 2.0
/// print(scaled.value)         // 20.0
/// ```
///
/// A change of a model property is a change like a ``Stored`` write: the computed values that
/// depend on it are re-evaluated once, glitch-free (a value that reads both a ``Stored`` and a
/// model property never sees a mix), cut off by equality, and each reaction runs once.
///
/// **When.** Observation reports a change *before* the property is set (`willSet`), so Ripple
/// marks the values that depend on it stale at once (a read after the assignment re-evaluates),
/// but runs the reactions only once the change is made:
/// - a change made inside a reaction or a change handler is applied after the current round,
///   as a write made there would be; one made inside a ``batch(_:)`` is part of the batch:
///   applied with its writes when it ends (other threads see the derived values change then),
///   and read in the batch's view inside it;
/// - any other change runs its reactions from a task: on the main actor when it was made
///   there (the usual case for an app's models), after the main actor's current work;
///   otherwise on the global executor, which may run before the assignment is done, so on
///   another thread make the change inside ``batch(_:)`` to have its reactions run on that
///   thread when the batch ends. (A model changed on one thread while a derivation reads it on
///   another is a data race, as with any `@Observable` class shared across threads.)
///
/// **Cost.** Tracking is opt-in because its price is paid on every evaluation: Observation can
/// only be asked what a closure read by running the closure inside `withObservationTracking`,
/// and doing that around every evaluation and reaction run made Ripple's benchmarks slower for
/// graphs that read no model at all (deep 57 %, broad 38 %, diamond 29 %, repeated 13 %). Only
/// the code inside `tracked { }` pays, and Ripple values read there cost what they cost
/// anywhere.
///
/// Ripple values read inside `body` are tracked by Ripple only: they do not also register with
/// Observation. Outside any derivation or reaction (at top level, inside ``untracked(_:)``,
/// or inside a SwiftUI view's body), `tracked { }` only runs `body`: the reads register with
/// whatever Observation tracking is in progress, if any. Nested `tracked { }` calls of one
/// derivation or reaction register once.
///
/// Observation merges nested tracking: a computed value evaluated inside the `tracked { }` of a
/// reaction (or of a SwiftUI body) passes the model properties it read to that reaction too,
/// so a change of one of them may run the reaction even when the computed value turns out
/// equal. Its re-evaluations for Ripple's reasons tell that reaction or body nothing: an
/// equal value is cut off as everywhere. For the same reason, an ``untracked(_:)`` block inside `tracked { }` still hides its
/// Ripple reads but not its model reads: keep untracked model reads outside `tracked { }`.
///
/// - Parameter body: The code whose Observation reads become dependencies.
/// - Returns: What `body` returns.
/// - Complexity: One `withObservationTracking` per call; the first call in each evaluation
///   also replaces the evaluation's Observation registrations, which costs what registering
///   costs for each model property read.
public func tracked<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
    let context = _ThreadContext.current
    // Asked before the scope opens: whether Observation merges this scope's registrations into
    // an enclosing one (see `_Graph.retire`).
    let isEnclosed = _observationScopeIsOpen(context)
    guard let scope = _graph.openObservationScope(context, isEnclosed: isEnclosed) else { return try body() }
    let source = scope.source
    let registration = scope.registration
    let outer = context.observationScopeRef
    context.observationScopeRef = .init(source)
    defer { context.observationScopeRef = outer }
    let outcome: Result<R, Failure> = withObservationTracking {
        registration.access()
        do throws(Failure) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    } onChange: { [weak source, weak registration] in
        // A registration replaced since (`registration` released) reports nothing, as one
        // cancelled by `_Graph.retire` does not.
        guard registration != nil else { return }
        source?.observationWillChange()
    }
    return try outcome.get()
}
