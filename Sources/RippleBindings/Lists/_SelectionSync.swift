import Ripple
import RippleModels

/// Keeps a set of selected ids and the latest selected id in agreement (see
/// `ListDataSource.bindSelection(_:latest:)`): two reactions, one on each value, and the
/// order in which the ids of the set were selected.
///
/// Each reaction writes the other value only when the two disagree, so the write it makes
/// finds them agreeing and stops there. No lock is held while a value is written.
enum _SelectionSync {
    /// Starts keeping `selection` and `latest` in agreement; `listOrder` sorts ids selected
    /// together by their place in the list. Stops when the subscription is cancelled.
    static func start<ID: Hashable & Sendable>(
        selection: ValueBinding<Set<ID>>,
        latest: ValueBinding<ID?>,
        listOrder: @escaping @Sendable (Set<ID>) -> [ID]
    ) -> Subscription {
        // At bind, the set wins, unless it is empty.
        if untracked({ selection.value.isEmpty }), let only = untracked({ latest.value }) {
            selection.value = [only]
        }
        let order = _Box<[ID]>([])
        return withoutOwner {
            let fromSet = observe {
                let ids = selection.value
                let kept = order.value.filter { ids.contains($0) }
                let added = ids.subtracting(kept)
                let newOrder = added.isEmpty ? kept : kept + listOrder(added)
                order.value = newOrder
                let expected = newOrder.last
                if untracked({ latest.value }) != expected { latest.value = expected }
            }
            let fromLatest = observe {
                let value = latest.value
                let (ids, last) = untracked { (selection.value, order.value.last) }
                let agrees = value == last && (value.map { ids.contains($0) } ?? ids.isEmpty)
                if agrees { return }
                let replacement: Set<ID> = value.map { [$0] } ?? []
                order.value = value.map { [$0] } ?? []
                selection.value = replacement
            }
            return Subscription {
                fromSet.cancel()
                fromLatest.cancel()
            }
        }
    }
}
