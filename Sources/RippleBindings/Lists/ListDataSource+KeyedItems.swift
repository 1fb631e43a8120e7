import Ripple
import RippleModels

extension ListDataSource where SectionID == Int {
    /// Creates a data source with one section over read-only values that are not
    /// `Identifiable`, matched by the key at `id` (SwiftUI's `ForEach(_:id:)`).
    ///
    /// ```swift
    /// struct City: Equatable { var name: String; var population: Int }
    /// let dataSource = ListDataSource(items: visibleCities, id: \.name)
    /// ```
    ///
    /// The items are ``ListItem``s: the value and its key. Diffing, moves and selection work by
    /// key as for `Identifiable` items (bind the selection to a set of keys); an `Equatable`
    /// value whose content changes is reloaded.
    ///
    /// - Parameters:
    ///   - items: The values to show.
    ///   - id: The key path of each value's identity.
    ///   - scheduler: Where the view is told of changes.
    /// - Complexity: O(*n*) to wrap the values on each change, and the linear diff.
    public convenience init<Value: Sendable, Key: Hashable & Sendable>(
        items: some ObservableValue<[Value]> & Sendable,
        id: any KeyPath<Value, Key> & Sendable,
        on scheduler: BindingScheduler = .immediate
    ) where Item == ListItem<Value, Key> {
        self.init(
            sections: ReadOnlyBinding {
                [ListSection(id: 0, items: items.value.map { ListItem($0, id: $0[keyPath: id]) })]
            },
            on: scheduler,
            isUpdated: _contentChanged(Value.self, Key.self)
        )
    }

    /// Creates a data source with one section over values that are not `Identifiable`,
    /// matched by the key at `id`; the user's moves and deletions are written to `items`.
    ///
    /// ```swift
    /// let dataSource = ListDataSource(items: ValueBinding(cities), id: \.name)
    /// ```
    ///
    /// - Parameters:
    ///   - items: The values to show and edit.
    ///   - id: The key path of each value's identity.
    ///   - scheduler: Where the view is told of changes.
    public convenience init<Value: Sendable, Key: Hashable & Sendable>(
        items: ValueBinding<[Value]>,
        id: any KeyPath<Value, Key> & Sendable,
        on scheduler: BindingScheduler = .immediate
    ) where Item == ListItem<Value, Key> {
        let sections = ValueBinding<[ListSection<Int, ListItem<Value, Key>>]>(
            get: { [ListSection(id: 0, items: items.value.map { ListItem($0, id: $0[keyPath: id]) })] },
            update: { transform in
                items.update { values in
                    var sections = [ListSection(id: 0, items: values.map { ListItem($0, id: $0[keyPath: id]) })]
                    transform(&sections)
                    values = sections.flatMap { $0.items.map(\.value) }
                }
            }
        )
        self.init(sections: sections, on: scheduler, isUpdated: _contentChanged(Value.self, Key.self))
    }

    /// Creates a data source with one section over a stored array of values that are not
    /// `Identifiable`, matched by the key at `id`; the user's moves and deletions are
    /// written to it.
    ///
    /// ```swift
    /// let cities = Stored([City(name: "Oslo", population: 709_000)])
    /// let dataSource = ListDataSource(items: cities, id: \.name)
    /// ```
    public convenience init<Value: Sendable, Key: Hashable & Sendable>(
        items: Stored<[Value]>,
        id: any KeyPath<Value, Key> & Sendable,
        on scheduler: BindingScheduler = .immediate
    ) where Item == ListItem<Value, Key> {
        self.init(items: ValueBinding(items), id: id, on: scheduler)
    }

    /// Creates a data source with one section over read-only values matched by position: the
    /// item at the same index is the same row (ids `0..<count`).
    ///
    /// ```swift
    /// let dataSource = ListDataSource(items: logLines, id: .position)
    /// ```
    ///
    /// A change at an index reloads that row (for `Equatable` values), a longer list inserts
    /// rows at the end and a shorter one deletes them there; nothing is ever moved. A
    /// selection bound to positions stays at its positions. The user cannot move or delete
    /// rows of such a list (a row's identity would change under it): give the values a key
    /// and use ``init(items:id:on:)-(ValueBinding<[Value]>,_,_)`` for that.
    ///
    /// - Complexity: O(*n*) per change.
    public convenience init<Value: Sendable>(
        items: some ObservableValue<[Value]> & Sendable,
        id: ListItemIdentity,
        on scheduler: BindingScheduler = .immediate
    ) where Item == ListItem<Value, Int> {
        self.init(
            sections: ReadOnlyBinding {
                [ListSection(id: 0, items: items.value.enumerated().map { ListItem($1, id: $0) })]
            },
            on: scheduler,
            isUpdated: _contentChanged(Value.self, Int.self)
        )
    }
}

/// Whether a keyed item's content changed: for `Equatable` values, when they differ; never
/// otherwise (the row is then only reloaded when its key changes).
private func _contentChanged<Value: Sendable, Key: Hashable & Sendable>(
    _: Value.Type,
    _: Key.Type
) -> (@Sendable (ListItem<Value, Key>, ListItem<Value, Key>) -> Bool)? {
    guard let isEqual = _equality(for: Value.self) else { return nil }
    return { !isEqual($0.value, $1.value) }
}
