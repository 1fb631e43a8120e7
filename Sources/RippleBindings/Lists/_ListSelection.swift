import Ripple
import RippleModels

/// Where a list's selection lives: one item's id, or a set of ids.
enum _ListSelection<ID: Hashable & Sendable>: Sendable {
    case single(ValueBinding<ID?>)
    case multiple(ValueBinding<Set<ID>>)

    /// The selected ids; tracked when read in a reaction.
    var ids: Set<ID> {
        switch self {
        case .single(let binding): binding.value.map { [$0] } ?? []
        case .multiple(let binding): binding.value
        }
    }

    /// Selects `id`; returns the id this replaced (single selection).
    func select(_ id: ID) -> ID? {
        switch self {
        case .single(let binding):
            let previous = untracked { binding.value }
            binding.value = id
            return previous == id ? nil : previous
        case .multiple(let binding):
            binding.update { $0.insert(id) }
            return nil
        }
    }

    /// Removes `ids` from the selection.
    func remove(_ ids: Set<ID>) {
        switch self {
        case .single(let binding):
            binding.update { current in
                if let selected = current, ids.contains(selected) { current = nil }
            }
        case .multiple(let binding):
            binding.update { $0.subtract(ids) }
        }
    }
}
