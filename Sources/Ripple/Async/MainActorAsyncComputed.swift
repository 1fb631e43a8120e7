/// A value derived on the main actor by an `async` operation that runs again when what it read
/// changes: ``AsyncComputed`` for main-actor code.
///
/// ```swift
/// @MainActor final class SearchScreen {
///     let query = Stored("")
///     let api: SearchAPI          // a main-actor service
///     lazy var results = MainActorAsyncComputed { [unowned self] in
///         try await api.search(query.value)
///     }
/// }
/// ```
///
/// The operation is isolated to the main actor, so it may read and call main-actor state (a
/// view model, a main-actor service) and need not be `Sendable`; its ``value`` (an
/// ``AsyncPhase``) is read on the main actor, and tracked like any reactive value: in a
/// ``MainActorComputed``, an ``observeOnMainActor(isolation:file:line:_:)`` reaction, a
/// SwiftUI body.
///
/// Everything else is as for ``AsyncComputed``:
/// - **Tracking**: the reactive values the operation reads before its first suspension are
///   its dependencies. Each run starts inside a reaction that runs on the main actor, and the
///   operation starts synchronously in that run (`Task.immediate`, whose task is isolated to
///   the main actor like the code that starts it), so those reads are the reaction's. A call
///   of a `nonisolated` async function leaves the main actor first (in a target without
///   `NonisolatedNonsendingByDefault`): that switch is the first suspension, before the
///   callee's body runs; reads in the call's arguments are still tracked.
/// - **Restart**: a change of a dependency cancels the running task and starts a new run, on
///   the main actor: at once, before the write returns, for a write made on the main thread;
///   for a write made on another thread, as soon as the main actor gets to it (runs sent there
///   are coalesced). A run's result is published only if no newer run started after it.
/// - **Laziness**: nothing runs until ``value`` is first read; the running task is cancelled
///   when the last observer goes (unless `keepsRunningWhenUnobserved`), and ``cancel()`` stops
///   it for good.
/// - **Platforms**: as for ``AsyncComputed``, the synchronous start needs the 26 releases of
///   Apple's systems (and runs on Linux); before them the operation starts in a plain
///   main-actor task and its reads are not tracked.
///
/// - Complexity: A read costs one read of a ``Stored`` plus one acquisition of the graph's
///   lock (which starts the operation the first time).
@MainActor
public final class MainActorAsyncComputed<Success: Sendable> {
    /// The machinery, shared with ``AsyncComputed``, whose driver runs on the main actor.
    nonisolated let base: AsyncComputed<Success>

    /// Creates a value derived on the main actor by `operation`, which starts when the value
    /// is first read.
    ///
    /// Nonisolated: creating the value touches no main-actor state (the operation starts on
    /// the first read, on the main actor), so it may initialise a stored property.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics.
    ///   - keepsRunningWhenUnobserved: Keep a run going when the last observer of ``value``
    ///     goes (by default it is cancelled then, and starts again on the next read).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - operation: The derivation, isolated to the main actor. What it reads before its
    ///     first suspension is tracked; a change of that cancels it and runs it again.
    public nonisolated init(
        name: String? = nil,
        keepsRunningWhenUnobserved: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: @escaping @MainActor () async throws -> Success
    ) {
        base = AsyncComputed(
            name: name, keepsRunningWhenUnobserved: keepsRunningWhenUnobserved, file: file, line: line,
            onMainActor: operation)
    }

    /// The operation's phase: ``AsyncPhase/idle`` before the first read, then loading, value or
    /// failure. Reading it inside a derivation or reaction tracks it; the first read starts the
    /// operation.
    public var value: AsyncPhase<Success> { base.value }

    /// The last settled value (see ``AsyncPhase/latest``), tracked like ``value``.
    public var latest: Success? { base.latest }

    /// Stops the operation for good: the running task is cancelled, and no change starts it
    /// again. The phase stays as it is.
    public func cancel() { base.cancel() }

    /// Shows `value` at once, as if the operation had returned it, while `operation` (a save)
    /// runs; if `operation` throws, the phase it replaced comes back and the error is rethrown.
    /// See ``AsyncComputed/optimistic(_:operation:)``.
    ///
    /// - Parameters:
    ///   - value: The value to show now.
    ///   - operation: The work the value anticipates, on the main actor.
    /// - Throws: What `operation` throws, after the rollback.
    public func optimistic(_ value: Success, operation: @MainActor () async throws -> Void) async throws {
        let shown = base.showOptimistic(value)
        do {
            try await operation()
        } catch {
            base.rollBack(shown)
            throw error
        }
    }
}
