import RippleBindings
import RippleMacros

/// The screen: a table fed directly by the model's visible list, a main-actor computed value.
final class TodoScreen {
    let model: TodoListModel
    let table = TodoTable()
    let dataSource: MainActorListDataSource<Int, Todo>
    private let bag = SubscriptionBag()

    init(model: TodoListModel) {
        self.model = model
        dataSource = MainActorListDataSource(items: model.visible)
        table.source = dataSource
        table.reloadData()
        let table = table
        dataSource.connect { update in table.apply(update) }.store(in: bag)
    }
}
