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

    private func setSelection(_ selection: _ListSelection<Item.ID>) {
        _state.modify { $0.selection = selection }
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
