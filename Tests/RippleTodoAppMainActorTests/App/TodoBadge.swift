import RippleMacros

/// The app icon's badge: a named main-actor reaction on the model's count, and a log of the
/// count's changes.
final class TodoBadge {
    let model: TodoListModel
    private(set) var text = ""
    private(set) var countChanges: [String] = []
    private let bag = SubscriptionBag()

    init(model: TodoListModel) {
        self.model = model
        observeOnMainActor(named: "badge", owner: self) { badge in
            badge.text = "\(badge.model.remaining.value) left"
        }.store(in: bag)
        model.remaining.onChange { [weak self] old, new in
            self?.countChanges.append("\(old)→\(new)")
        }.store(in: bag)
    }
}
