/// The hooks a store runs in the batch that publishes each commit (entity observers, closure
/// selectors), with the snapshot the publishing thread reads as published and the new one.
///
/// An immutable list behind a reference, which the store keeps as an optional (`nil` while
/// there is none): its unspecialized commit path copies and tests a reference without looking
/// up the metadata of an array of generic closures, as an array held directly would need on
/// every commit.
final class _PublishHooks<State: Sendable>: Sendable {
    typealias Hook = @Sendable (_ previous: _Snapshot<State>, _ current: _Snapshot<State>) -> Void

    private let hooks: [Hook]

    /// `list`'s hooks followed by `hook` (a new list: copies already taken keep theirs).
    init(appending hook: @escaping Hook, to list: _PublishHooks?) {
        hooks = (list?.hooks ?? []) + [hook]
    }

    /// Runs every hook, in the order they were added.
    func run(_ previous: _Snapshot<State>, _ current: _Snapshot<State>) {
        for hook in hooks { hook(previous, current) }
    }
}
