/// The hooks a store runs in the batch that publishes each commit (entity observers, closure
/// selectors), with the snapshot the publishing thread reads as published and the new one.
///
/// An immutable list behind a reference, which the store keeps as an optional (`nil` while
/// there is none): its unspecialized commit path copies and tests a reference without looking
/// up the metadata of an array of generic closures, as an array held directly would need on
/// every commit.
final class _PublishHooks<State: Sendable>: Sendable {
    typealias Hook = @Sendable (_ previous: _Snapshot<State>, _ current: _Snapshot<State>) -> Void
    /// Whether a hook has nothing to do now (its registry is empty).
    typealias IdleCheck = @Sendable () -> Bool

    private let hooks: [Hook]
    /// Each hook's idle check, `nil` for a hook that always has work (entity observers).
    private let idleChecks: [IdleCheck?]
    /// Whether some hook has no idle check: then the list is never idle, without a call.
    private let isNeverIdle: Bool

    /// `list`'s hooks followed by `hook` (a new list: copies already taken keep theirs).
    /// `isIdle`: whether `hook` has nothing to do now.
    init(appending hook: @escaping Hook, idleWhen isIdle: IdleCheck?, to list: _PublishHooks?) {
        hooks = (list?.hooks ?? []) + [hook]
        idleChecks = (list?.idleChecks ?? []) + [isIdle]
        isNeverIdle = idleChecks.contains { $0 == nil }
    }

    /// Whether every hook has nothing to do now: a commit is then published as if there were
    /// none, without a batch (a store whose closure selectors were all released costs what it
    /// cost before it had one).
    ///
    /// A store checks this while it holds its gate, after its commit closed (and again when a
    /// queued publish runs): a selector is made only by a thread that holds the gate or is
    /// handed a commit by its owner, from the latest committed state, so one made after the
    /// check already has this commit's result, and the next publish runs it. A commit published
    /// without the hooks inside `batch { }` on another thread is caught up by the next publish,
    /// which finds the versions not consecutive and writes every selector.
    ///
    /// - Complexity: O(*h*) in the hooks: one call each (a lock pair for the selectors); none
    ///   when a hook has no idle check (entity observers).
    var areIdle: Bool {
        if isNeverIdle { return false }
        for check in idleChecks {
            guard let check, check() else { return false }
        }
        return true
    }

    /// Runs every hook, in the order they were added.
    func run(_ previous: _Snapshot<State>, _ current: _Snapshot<State>) {
        for hook in hooks { hook(previous, current) }
    }
}
