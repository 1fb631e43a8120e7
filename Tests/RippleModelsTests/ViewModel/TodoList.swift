import Ripple
import RippleModels

// Plain Swift 6 mode: the view model says `@MainActor` itself. No `@unchecked Sendable`, no
// `nonisolated(unsafe)`: a main-actor class is `Sendable`, and its state is only touched there.

struct TodoItem: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var isDone = false
}

enum TodoFilter: Sendable {
    case all, active, done
}

/// A to-do list view model: model properties, derived values and plain main-actor state.
@MainActor
final class TodoList: ObservableModel {
    @Observed var items: [TodoItem] = []
    @Observed var filter = TodoFilter.all
    /// Written from any thread (a sync engine's status): a `Stored` in a `nonisolated let`.
    nonisolated let syncStatus = Stored("idle")
    /// Plain main-actor state: not observed.
    private var nextID = 1

    lazy var visible = MainActorComputed(owner: self) { list in
        switch list.filter {
        case .all: list.items
        case .active: list.items.filter { !$0.isDone }
        case .done: list.items.filter(\.isDone)
        }
    }
    lazy var remaining = MainActorComputed(owner: self) { list in
        list.items.count { !$0.isDone }
    }

    func add(_ title: String) {
        items.append(TodoItem(id: nextID, title: title))
        nextID += 1
    }

    func toggle(_ id: Int) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].isDone.toggle()
    }
}

/// What a view shows of the list, kept up to date by a reaction it owns.
@MainActor
final class TodoScreen {
    let list: TodoList
    private(set) var header = ""
    private(set) var renders = 0
    private let bag = SubscriptionBag()

    init(list: TodoList) {
        self.list = list
        observeOnMainActor(owner: self) { screen in
            screen.renders += 1
            let list = screen.list
            screen.header = "\(list.remaining.value) of \(list.visible.value.count) left · \(list.syncStatus.value)"
        }.store(in: bag)
    }
}
