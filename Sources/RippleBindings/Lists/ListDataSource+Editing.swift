import Ripple
import RippleModels

extension ListDataSource {
    /// The user moved an item (the view already shows the move): applies it to the shown list
    /// and writes it to the source, where the item, found by id, is moved to the same place.
    ///
    /// - Precondition: ``allowsMoving`` is set, the source is writable, and both positions are
    ///   valid (`to` as a position after the item is removed from `from`).
    public func userDidMove(from: ListIndex, to: ListIndex) {
        guard let writableSource = _writableSource, allowsMoving else {
            _bindingsFailure(
                "ListDataSource.userDidMove(from: \(from), to: \(to)): moving is not allowed; set allowsMoving on a data source made with a writable source (a Stored or a ValueBinding)."
            )
        }
        let (moved, sectionID) = _state.modify { state -> (Item, SectionID) in
            let displayed = state.displayed
            guard displayed.indices.contains(from.section), displayed[from.section].items.indices.contains(from.item)
            else {
                _bindingsFailure("ListDataSource.userDidMove(from: \(from), to: \(to)): no item at \(from).")
            }
            guard displayed.indices.contains(to.section),
                (0...(displayed[to.section].items.count - (from.section == to.section ? 1 : 0))).contains(to.item)
            else {
                _bindingsFailure(
                    "ListDataSource.userDidMove(from: \(from), to: \(to)): \(to) is not a valid destination.")
            }
            let item = state.displayed[from.section].items.remove(at: from.item)
            state.displayed[to.section].items.insert(item, at: to.item)
            return (item, displayed[to.section].id)
        }
        writableSource.update { sections in
            _move(moved.id, toSection: sectionID, at: to.item, in: &sections, replacement: moved)
        }
    }

    /// The user deleted the item at `index` (the view already removed it): applies it to the
    /// shown list, removes the item (found by id) from the source and from the selection.
    ///
    /// - Precondition: ``allowsDeletion`` is set, the source is writable, and `index` is valid.
    public func userDidDelete(at index: ListIndex) {
        guard let writableSource = _writableSource, allowsDeletion else {
            _bindingsFailure(
                "ListDataSource.userDidDelete(at: \(index)): deletion is not allowed; set allowsDeletion on a data source made with a writable source (a Stored or a ValueBinding)."
            )
        }
        let (deleted, selection) = _state.modify { state -> (Item, _ListSelection<Item.ID>?) in
            guard state.displayed.indices.contains(index.section),
                state.displayed[index.section].items.indices.contains(index.item)
            else {
                _bindingsFailure("ListDataSource.userDidDelete(at: \(index)): no item at \(index).")
            }
            return (state.displayed[index.section].items.remove(at: index.item), state.selection)
        }
        let id = deleted.id
        writableSource.update { sections in
            for s in sections.indices {
                if let i = sections[s].items.firstIndex(where: { $0.id == id }) {
                    sections[s].items.remove(at: i)
                    return
                }
            }
        }
        selection?.remove([id])
    }
}

/// Moves the item with `id` to `position` in the section `sectionID` of `sections` (clamped to
/// the section), or inserts `replacement` there if the item is gone.
private func _move<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>(
    _ id: Item.ID,
    toSection sectionID: SectionID,
    at position: Int,
    in sections: inout [ListSection<SectionID, Item>],
    replacement: Item
) where Item.ID: Sendable {
    var item = replacement
    for s in sections.indices {
        if let i = sections[s].items.firstIndex(where: { $0.id == id }) {
            item = sections[s].items.remove(at: i)
            break
        }
    }
    guard let target = sections.firstIndex(where: { $0.id == sectionID }) else { return }
    let clamped = min(max(position, 0), sections[target].items.count)
    sections[target].items.insert(item, at: clamped)
}
