import Foundation
import RippleMacros

/// The list's view model: a `@RippleModel`, with its derived list and count.
@RippleModel
final class TodoListModel {
    var items: [Todo] = []
    @RippleIgnored var nextID = 1
    /// The filter, kept in the user's defaults.
    let filter: Persisted<Filter>

    /// The to-dos the filter lets through.
    lazy var visible = MainActorComputed(owner: self) { model in
        switch model.filter.value {
        case .all: model.items
        case .active: model.items.filter { !$0.isDone }
        case .done: model.items.filter(\.isDone)
        }
    }
    /// How many to-dos are not done.
    lazy var remaining = MainActorComputed(owner: self) { model in
        model.items.count { !$0.isDone }
    }

    init(defaults: UserDefaults) {
        filter = Persisted("filter", default: .all, store: UserDefaultsStore(defaults))
    }

    func add(_ title: String) {
        items.append(Todo(id: nextID, title: title))
        nextID += 1
    }

    func toggle(_ id: Int) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].isDone.toggle()
    }

    func clearDone() {
        items.removeAll(where: \.isDone)
    }
}
