import Ripple
import RippleModels

extension ListDataSource {
    /// Keeps the selection in `selection`, a set of item ids (multiple selection).
    ///
    /// The view's selection follows the model's, and the user's selections are written to it.
    /// Items deleted from the list leave the selection. Bind before ``connect(update:selection:)``.
    ///
    /// ```swift
    /// let selected = Stored<Set<Day.ID>>([])
    /// dataSource.bindSelection(selected)
    /// ```
    public func bindSelection(_ selection: Stored<Set<Item.ID>>) {
        bindSelection(ValueBinding(selection))
    }

    /// Keeps the selection in `selection`, a set of item ids (multiple selection).
    public func bindSelection(_ selection: ValueBinding<Set<Item.ID>>) {
        setSelection(.multiple(selection))
    }

    /// Keeps the selection in `selection`, one item's id or `nil` (single selection).
    public func bindSelection(_ selection: Stored<Item.ID?>) {
        bindSelection(ValueBinding(selection))
    }

    /// Keeps the selection in `selection`, one item's id or `nil` (single selection).
    public func bindSelection(_ selection: ValueBinding<Item.ID?>) {
        setSelection(.single(selection))
    }

    /// Keeps the selection in two model values that agree: `selection`, the set of selected
    /// ids (multiple selection), and `latest`, the id selected last (Fisticuffs'
    /// `config.selections` and `config.selection` together).
    ///
    /// ```swift
    /// let selectedDays = Stored<Set<Day.ID>>([])
    /// let currentDay = Stored<Day.ID?>(nil)              // shown in a detail view
    /// dataSource.bindSelection(selectedDays, latest: currentDay)
    /// ```
    ///
    /// The view shows the set, and the user's selections are written to it. The rules:
    ///
    /// - `latest` is the id of the set selected last (by the user or by the model), or `nil`
    ///   when the set is empty. When it leaves the set, the one selected before it takes its
    ///   place. Ids that enter the set together are taken as selected in list order, so the
    ///   last of them in the list becomes `latest`.
    /// - Writing `latest` replaces the set: `latest = id` selects only `id`, `latest = nil`
    ///   empties the set.
    /// - At bind, the set wins: `latest` becomes the last of the set in list order, or, when the
    ///   set is empty and `latest` is not `nil`, the set becomes `[latest]`.
    ///
    /// Items deleted from the list leave both. Write one of the two values at a time: when a
    /// batch writes both, whichever the data source sees last wins. Bind before
    /// ``connect(update:selection:)``; binding another selection ends this one.
    ///
    /// - Complexity: O(*s*) in the size of the set for each change of either value, plus O(*n*)
    ///   over the items shown when ids enter the set.
    public func bindSelection(_ selection: Stored<Set<Item.ID>>, latest: Stored<Item.ID?>) {
        bindSelection(ValueBinding(selection), latest: ValueBinding(latest))
    }

    /// Keeps the selection in two model values that agree: a set of ids and the id selected
    /// last (see ``bindSelection(_:latest:)-(Stored<Set<Item.ID>>,_)``).
    ///
    /// ```swift
    /// dataSource.bindSelection(ValueBinding(selectedDays), latest: ValueBinding(currentDay))
    /// ```
    public func bindSelection(_ selection: ValueBinding<Set<Item.ID>>, latest: ValueBinding<Item.ID?>) {
        let sync = _SelectionSync.start(selection: selection, latest: latest) { [weak self] ids in
            self?.listOrder(of: ids) ?? Array(ids)
        }
        setSelection(.multiple(selection), sync: sync)
    }

    private func setSelection(_ selection: _ListSelection<Item.ID>, sync: Subscription? = nil) {
        let previous = _state.modify { state in
            defer { state.selection = selection; state.selectionSync = sync }
            return state.selectionSync
        }
        previous?.cancel()
    }

    /// `ids` in the order the view shows them, followed by those it does not show.
    ///
    /// - Complexity: O(*n*) in the items shown.
    private func listOrder(of ids: Set<Item.ID>) -> [Item.ID] {
        if ids.count == 1 { return Array(ids) }
        var ordered: [Item.ID] = []
        var remaining = ids
        for section in _state.value.displayed {
            for item in section.items where remaining.remove(item.id) != nil { ordered.append(item.id) }
        }
        return ordered + remaining
    }

    /// The positions of the selected items the view shows, ascending.
    ///
    /// - Complexity: O(*n*) in the number of items shown.
    public var selectedIndices: [ListIndex] {
        let (displayed, selection, canSelect) = _state.modify { ($0.displayed, $0.selection, $0.canSelect) }
        guard let selection else { return [] }
        let ids = untracked { selection.ids }
        if ids.isEmpty { return [] }
        var indices: [ListIndex] = []
        for (s, section) in displayed.enumerated() {
            for (i, item) in section.items.enumerated() where ids.contains(item.id) && canSelect(item) {
                indices.append(ListIndex(section: s, item: i))
            }
        }
        return indices
    }

    /// Whether the user may select the item at `index` (``canSelectItem``).
    public func canSelect(at index: ListIndex) -> Bool {
        canSelectItem(item(at: index))
    }

    /// The user selected the item at `index`: writes it to the selection and sends
    /// ``didSelect``. Returns `false`, and does nothing, for an item that cannot be selected.
    @discardableResult
    public func userDidSelect(at index: ListIndex) -> Bool {
        let selected = item(at: index)
        guard canSelectItem(selected) else { return false }
        if let replaced = _state.value.selection?.select(selected.id), let previous = self.index(of: replaced) {
            didDeselect.send(item(at: previous))
        }
        didSelect.send(selected)
        return true
    }

    /// The user deselected the item at `index`: removes it from the selection and sends
    /// ``didDeselect``.
    public func userDidDeselect(at index: ListIndex) {
        let deselected = item(at: index)
        _state.value.selection?.remove([deselected.id])
        didDeselect.send(deselected)
    }
}
