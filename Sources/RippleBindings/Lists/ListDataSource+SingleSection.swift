import Ripple
import RippleModels

extension ListDataSource where SectionID == Int {
    /// Creates a data source with one section (id `0`) over read-only items.
    ///
    /// ```swift
    /// let dataSource = ListDataSource(items: searchResults)   // a Computed<[Result]>
    /// ```
    public convenience init(items: some ObservableValue<[Item]> & Sendable, on scheduler: BindingScheduler = .immediate)
    {
        self.init(sections: ReadOnlyBinding { [ListSection(id: 0, items: items.value)] }, on: scheduler, isUpdated: nil)
    }

    /// Creates a data source with one section over read-only `Equatable` items: an item whose
    /// content changes is reloaded.
    public convenience init(items: some ObservableValue<[Item]> & Sendable, on scheduler: BindingScheduler = .immediate)
    where Item: Equatable {
        self.init(
            sections: ReadOnlyBinding { [ListSection(id: 0, items: items.value)] }, on: scheduler,
            isUpdated: { $0 != $1 })
    }

    /// Creates a data source with one section over items that the user's moves and deletions
    /// are written to.
    public convenience init(items: ValueBinding<[Item]>, on scheduler: BindingScheduler = .immediate) {
        self.init(sections: _sectioned(items), on: scheduler, isUpdated: nil)
    }

    /// Creates a data source with one section over `Equatable` items that the user's moves
    /// and deletions are written to: an item whose content changes is reloaded.
    public convenience init(items: ValueBinding<[Item]>, on scheduler: BindingScheduler = .immediate)
    where Item: Equatable {
        self.init(sections: _sectioned(items), on: scheduler, isUpdated: { $0 != $1 })
    }

    /// Creates a data source with one section over a stored array, which the user's moves and
    /// deletions are written to.
    public convenience init(items: Stored<[Item]>, on scheduler: BindingScheduler = .immediate) {
        self.init(items: ValueBinding(items), on: scheduler)
    }

    /// Creates a data source with one section over a stored array of `Equatable` items.
    public convenience init(items: Stored<[Item]>, on scheduler: BindingScheduler = .immediate) where Item: Equatable {
        self.init(items: ValueBinding(items), on: scheduler)
    }
}

/// `items` as one section (id `0`), writable.
private func _sectioned<Item: Identifiable & Sendable>(_ items: ValueBinding<[Item]>) -> ValueBinding<
    [ListSection<Int, Item>]
> where Item.ID: Sendable {
    ValueBinding(
        get: { [ListSection(id: 0, items: items.value)] },
        update: { transform in
            items.update { elements in
                var sections = [ListSection(id: 0, items: elements)]
                transform(&sections)
                elements = sections.flatMap(\.items)
            }
        }
    )
}
