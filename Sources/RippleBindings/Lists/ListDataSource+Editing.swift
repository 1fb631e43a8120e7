import Ripple
import RippleModels

extension ListDataSource {
    /// The user moved an item (the view already shows the move): applies it to the shown list
    /// and writes it to the source, where the item, found by id, is moved to the same place:
    /// right after the item shown before it (found by id), or first in its section. So a move
    /// lands where the user put it even when the source has changes the view does not show yet.
    /// Repeated ids are matched in order, as the list's updates match them: the third item
    /// shown with an id is the third item with that id in the source (and likewise for the
    /// destination's section). An item the source no longer has (the app removed it, and the
    /// view is not told yet) stays removed: the app's write is not undone.
    ///
    /// - Precondition: ``allowsMoving`` is set, the source is writable, and both positions are
    ///   valid (`to` as a position after the item is removed from `from`).
    public func userDidMove(from: ListIndex, to: ListIndex) {
        guard let writableSource = _writableSource, allowsMoving else {
            _bindingsFailure(
                "ListDataSource.userDidMove(from: \(from), to: \(to)): moving is not allowed; set allowsMoving on a data source made with a writable source (a Stored or a ValueBinding)."
            )
        }
        let (itemPlace, sectionPlace, after) = _state.modify {
            state -> (_Occurrence<Item.ID>, _Occurrence<SectionID>, _Occurrence<Item.ID>?) in
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
            let itemPlace = _Occurrence(ofItemAt: from, in: displayed)
            let sectionPlace = _Occurrence(ofSection: to.section, in: displayed)
            let item = state.displayed[from.section].items.remove(at: from.item)
            state.displayed[to.section].items.insert(item, at: to.item)
            // The item now shown just before it, which the source places it after.
            let after =
                to.item > 0
                ? _Occurrence(ofItemAt: ListIndex(section: to.section, item: to.item - 1), in: state.displayed) : nil
            return (itemPlace, sectionPlace, after)
        }
        writableSource.update { sections in
            _move(from: itemPlace, toSection: sectionPlace, after: after, at: to.item, in: &sections)
        }
    }

    /// The user deleted the item at `index` (the view already removed it): applies it to the
    /// shown list, removes the item (found by id) from the source and from the selection.
    /// Repeated ids are matched in order (see ``userDidMove(from:to:)``); the id stays selected
    /// while another shown item has it.
    ///
    /// - Precondition: ``allowsDeletion`` is set, the source is writable, and `index` is valid.
    public func userDidDelete(at index: ListIndex) {
        guard let writableSource = _writableSource, allowsDeletion else {
            _bindingsFailure(
                "ListDataSource.userDidDelete(at: \(index)): deletion is not allowed; set allowsDeletion on a data source made with a writable source (a Stored or a ValueBinding)."
            )
        }
        let (place, stillShown, selection) = _state.modify {
            state -> (_Occurrence<Item.ID>, Bool, _ListSelection<Item.ID>?) in
            guard state.displayed.indices.contains(index.section),
                state.displayed[index.section].items.indices.contains(index.item)
            else {
                _bindingsFailure("ListDataSource.userDidDelete(at: \(index)): no item at \(index).")
            }
            let place = _Occurrence(ofItemAt: index, in: state.displayed)
            let id = state.displayed[index.section].items.remove(at: index.item).id
            let stillShown = state.displayed.contains { $0.items.contains { $0.id == id } }
            return (place, stillShown, state.selection)
        }
        writableSource.update { sections in
            guard let (s, i) = place.item(in: sections) else { return }
            sections[s].items.remove(at: i)
        }
        if !stillShown { selection?.remove([place.id]) }
    }
}

/// Which of the items (or sections) with one id a position is: the `rank`-th with `id`, in the
/// list's order. Repeated ids are matched in order between the shown list and the source, as
/// the list's updates match them.
private struct _Occurrence<ID: Hashable> {
    let id: ID
    let rank: Int
}

extension _Occurrence {
    /// The item shown at `index` of `sections`.
    init<SectionID, Item: Identifiable>(ofItemAt index: ListIndex, in sections: [ListSection<SectionID, Item>])
    where Item.ID == ID {
        let id = sections[index.section].items[index.item].id
        var rank = 0
        for s in 0...index.section {
            let end = s == index.section ? index.item : sections[s].items.count
            for item in sections[s].items[..<end] where item.id == id { rank += 1 }
        }
        self.init(id: id, rank: rank)
    }

    /// The section shown at `index` of `sections`.
    init<Item: Identifiable>(ofSection index: Int, in sections: [ListSection<ID, Item>]) {
        let id = sections[index].id
        self.init(id: id, rank: sections[..<index].filter { $0.id == id }.count)
    }

    /// Where this item is in `sections`: the `rank`-th item with `id`, else the last one with it
    /// (the source lost some since they were shown); `nil` when none has it.
    func item<SectionID, Item: Identifiable>(in sections: [ListSection<SectionID, Item>]) -> (Int, Int)?
    where Item.ID == ID {
        var seen = 0
        var last: (Int, Int)?
        for s in sections.indices {
            for i in sections[s].items.indices where sections[s].items[i].id == id {
                if seen == rank { return (s, i) }
                seen += 1
                last = (s, i)
            }
        }
        return last
    }

    /// Where this section is in `sections`: the `rank`-th with `id`, else the last one with it;
    /// `nil` when none has it.
    func section<Item: Identifiable>(in sections: [ListSection<ID, Item>]) -> Int? {
        let matching = sections.indices.filter { sections[$0].id == id }
        return matching.indices.contains(rank) ? matching[rank] : matching.last
    }
}

/// Moves the item `from` names into the section `section` names: right after the item `after`
/// names when that one is in the section, first in it when `after` is `nil`, else at `position`
/// (clamped to the section). Does nothing when the source no longer has the item (or the
/// section): the user moved what the app had already removed, and the removal stands.
private func _move<SectionID: Hashable & Sendable, Item: Identifiable & Sendable>(
    from: _Occurrence<Item.ID>,
    toSection section: _Occurrence<SectionID>,
    after: _Occurrence<Item.ID>?,
    at position: Int,
    in sections: inout [ListSection<SectionID, Item>]
) where Item.ID: Sendable {
    guard let (s, i) = from.item(in: sections), let target = section.section(in: sections) else { return }
    let item = sections[s].items.remove(at: i)
    let index: Int
    if let after {
        if let (anchorSection, anchor) = after.item(in: sections), anchorSection == target {
            index = anchor + 1
        } else {
            index = min(max(position, 0), sections[target].items.count)
        }
    } else {
        index = 0
    }
    sections[target].items.insert(item, at: index)
}
