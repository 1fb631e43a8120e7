import Ripple
import RippleModels

// Compiled with main-actor default isolation: every declaration here is on the main actor,
// with no annotation, no `@unchecked Sendable` and no `nonisolated(unsafe)`.

struct TodoItem: Equatable, Identifiable {
    let id: Int
    var title: String
    var isDone = false
}

enum Filter {
    case all, active, done
}

/// A to-do list view model: model properties, derived values and plain main-actor state.
final class TodoList: ObservableModel {
    @Observed var items: [TodoItem] = []
    @Observed var filter = Filter.all
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

    func clearDone() {
        items.removeAll(where: \.isDone)
    }
}

/// What a view shows of the list, kept up to date by a reaction it owns.
final class TodoScreen {
    let list: TodoList
    private(set) var header = ""
    private(set) var rows: [String] = []
    private(set) var renders = 0
    private let bag = SubscriptionBag()

    init(list: TodoList) {
        self.list = list
        observeOnMainActor(owner: self) { screen in
            screen.renders += 1
            screen.header = "\(screen.list.remaining.value) left · \(screen.list.syncStatus.value)"
            screen.rows = screen.list.visible.value.map { ($0.isDone ? "☑ " : "☐ ") + $0.title }
        }.store(in: bag)
    }
}

/// State shared across threads, in the same module: `nonisolated`, its state in `Stored`
/// values, so it is checked `Sendable`. (`@Observed var` is refused here: in a `nonisolated`
/// class under main-actor default isolation, the wrapper's storage is a mutable stored property
/// of a `Sendable` class.)
nonisolated final class SyncEngine: Sendable {
    let pushed = Stored(0)
    let label: Computed<String>

    init() {
        let pushed = pushed
        label = Computed { "\(pushed.value) pushed" }  // captures the value, not `self`
    }

    func push() {
        pushed.update { $0 += 1 }
    }
}
