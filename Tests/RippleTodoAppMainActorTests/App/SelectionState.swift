import RippleMacros
import RippleStore

/// A store's state whose commits reach only the readers of the fields they change: the macro
/// lists its stored properties. Its conformance to `StateFields` (a `Sendable` protocol) makes
/// it a nonisolated type, so a `Store` takes it, with nothing written about isolation.
@StateFields
struct SelectionState: Equatable {
    var selected: Set<Int> = []
    var filter = Filter.all
    /// Computed: not a field.
    var count: Int { selected.count }
}
