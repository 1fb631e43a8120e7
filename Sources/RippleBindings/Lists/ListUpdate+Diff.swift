/// The update from `old` to `new`: sections matched by id, then the items of each section
/// present in both matched by id.
///
/// - Complexity: O(*n* + *m* + *k* log *k*) over sections and items.
func _listUpdate<SectionID: Hashable, Item: Identifiable>(
    from old: [ListSection<SectionID, Item>],
    to new: [ListSection<SectionID, Item>],
    isUpdated: ((Item, Item) -> Bool)?
) -> ListUpdate {
    var update = ListUpdate()
    update.sections = ListChanges(from: old, to: new, id: { $0.id }, isUpdated: nil)
    // Each section that stays is paired with the old section the section diff kept or moved
    // to it (with repeated ids, not necessarily the first unmatched one with its id).
    let newToOld = update.sections._newToOld(oldCount: old.count)
    for (newSection, section) in new.enumerated() {
        let oldSection = newToOld[newSection]
        guard oldSection >= 0 else { continue }
        let before = old[oldSection].items
        let after = section.items
        // The common case: a section that did not change at all.
        if before.count == after.count, isUpdated == nil, before.indices.allSatisfy({ before[$0].id == after[$0].id }) {
            continue
        }
        let changes = ListChanges(from: before, to: after, id: { $0.id }, isUpdated: isUpdated)
        if changes.isEmpty { continue }
        update.itemDeletions += changes.deletions.map { ListIndex(section: oldSection, item: $0) }
        update.itemInsertions += changes.insertions.map { ListIndex(section: newSection, item: $0) }
        update.itemUpdates += changes.updates.map { ListIndex(section: oldSection, item: $0) }
        update.itemMoves += changes.moves.map {
            ListUpdate.Move(
                from: ListIndex(section: oldSection, item: $0.from), to: ListIndex(section: newSection, item: $0.to))
        }
    }
    update.itemDeletions.sort()
    update.itemInsertions.sort()
    update.itemUpdates.sort()
    return update
}

/// The ids of the items in `old` that are nowhere in `new`: those the update deletes (alone or
/// with their section) and that `new` does not show again (an item that changed section, or
/// one of two items with the same id).
///
/// - Complexity: O(*d*) in the items deleted, plus O(*m*) over the items of `new` when some are.
func _removedIDs<SectionID: Hashable, Item: Identifiable>(
    from old: [ListSection<SectionID, Item>],
    to new: [ListSection<SectionID, Item>],
    changes: ListUpdate
) -> Set<Item.ID> {
    var removed = Set<Item.ID>()
    for index in changes.itemDeletions { removed.insert(old[index.section].items[index.item].id) }
    for section in changes.sections.deletions { for item in old[section].items { removed.insert(item.id) } }
    if removed.isEmpty { return removed }
    for section in new {
        for item in section.items where removed.contains(item.id) { removed.remove(item.id) }
    }
    return removed
}
