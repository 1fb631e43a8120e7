import Ripple
import RippleBindings
import RippleModels
import Testing

/// Reference-model tests of the list diffs: every `ListChanges`, every sequence of
/// `steps(oldCount:)` and every `ListUpdate` is applied to the old list by a naive model of
/// the view (UIKit's batch rules, or AppKit's one-at-a-time steps) and compared with the new
/// list, over seeded random inputs shaped to be awkward: repeated ids, equal elements, empty
/// lists, nothing in common, reversals, rotations, sections added, removed and moved.
@Suite struct ListDiffPropertyTests {
    // MARK: Inputs

    /// A random list of `Row`s over a small alphabet of ids (so ids repeat when `repeats`),
    /// with a few titles (so equal elements and changed contents both occur).
    private static func randomRows(count: Int, ids: Int, using generator: inout SeededGenerator) -> [Row] {
        (0..<count).map { _ in
            Row(
                id: Int.random(in: 0..<ids, using: &generator),
                title: ["a", "b"][Int.random(in: 0..<2, using: &generator)])
        }
    }

    /// A pair of lists of one of the awkward shapes, chosen by `seed`.
    private static func randomPair(seed: Int) -> (old: [Row], new: [Row]) {
        var generator = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 3)
        let count = Int.random(in: 0..<25, using: &generator)
        // Unique ids (large alphabet) or heavily repeated ones (small alphabet).
        let ids = [1000, 4, 2, 30][seed % 4]
        let old = randomRows(count: count, ids: ids, using: &generator)
        switch (seed / 4) % 7 {
        case 0: return (old, old)
        case 1: return (old, old.reversed())
        case 2: return (old, [])
        case 3: return ([], old)
        case 4: return (old, randomRows(count: Int.random(in: 0..<25, using: &generator), ids: ids, using: &generator))
        case 5:
            // A rotation by a random amount, with some contents changed.
            let shift = old.isEmpty ? 0 : Int.random(in: 0..<old.count, using: &generator)
            var new = Array(old[shift...] + old[..<shift])
            for index in new.indices where Int.random(in: 0..<4, using: &generator) == 0 { new[index].title += "'" }
            return (old, new)
        default:
            // A few edits: removals, insertions, moves, changed contents.
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 1:
                    new.insert(
                        Row(id: Int.random(in: 0..<ids, using: &generator), title: "n"),
                        at: Int.random(in: 0...new.count, using: &generator))
                case 2 where !new.isEmpty: new[Int.random(in: 0..<new.count, using: &generator)].title += "'"
                case 3 where !new.isEmpty:
                    let row = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                    new.insert(row, at: Int.random(in: 0...new.count, using: &generator))
                default: break
                }
            }
            return (old, new)
        }
    }

    // MARK: ListChanges and steps against the models

    @Test(
        "property: ListChanges, as a batch and as steps, turns the old list into the new one (repeated ids, equal elements, empty, reversed, rotated)",
        arguments: 0..<600)
    func changesAndSteps(seed: Int) throws {
        let (old, new) = Self.randomPair(seed: seed)
        let changes = ListChanges(from: old, to: new, id: \.id, isUpdated: !=)
        #expect(
            changes.deletions == changes.deletions.sorted() && changes.insertions == changes.insertions.sorted()
                && changes.updates == changes.updates.sorted(), "seed \(seed): \(changes)")
        #expect(changes.moves.map(\.from) == changes.moves.map(\.from).sorted(), "seed \(seed): \(changes)")
        let batch = try #require(
            applyAsTableView(changes, to: old, reading: new),
            "seed \(seed): \(changes) breaks a batch-update rule for \(old) → \(new)")
        #expect(batch == new, "seed \(seed): \(changes)")

        // Minimal: of the ids in both lists (matched occurrence by occurrence), all are kept.
        var oldCounts: [Int: Int] = [:]
        for row in old { oldCounts[row.id, default: 0] += 1 }
        var matched = 0
        for row in new where oldCounts[row.id, default: 0] > 0 {
            oldCounts[row.id]! -= 1
            matched += 1
        }
        let movedAndChanged = changes.insertions.count - (new.count - matched)
        #expect(changes.deletions.count - movedAndChanged == old.count - matched, "seed \(seed): \(changes)")

        let steps = changes.steps(oldCount: old.count)
        let applied = try #require(
            applyStepsChecked(steps, to: old, reading: new),
            "seed \(seed): steps \(steps) of \(changes) use an index out of range")
        #expect(applied == new, "seed \(seed): steps \(steps) of \(changes)")
        // One move step at most per move of the changes.
        #expect(
            steps.count { if case .move = $0 { true } else { false } } <= changes.moves.count,
            "seed \(seed): steps \(steps) of \(changes)")
    }

    @Test(
        "ListChanges of Identifiable elements without contents: updates are never reported, the result still applies",
        arguments: 0..<100)
    func identityOnly(seed: Int) throws {
        let (old, new) = Self.randomPair(seed: seed)
        let changes = ListChanges(from: old, to: new, id: \.id)
        #expect(changes.updates.isEmpty)
        let applied = try #require(applyAsTableView(changes, to: old, reading: new))
        #expect(applied.map(\.id) == new.map(\.id), "seed \(seed): \(changes)")
    }

    @Test("repeated ids in a common suffix are matched position by position, as documented")
    func repeatedIDsInSuffix() throws {
        let old = [Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 1, title: "c")]
        let new = [Row(id: 2, title: "b"), Row(id: 1, title: "c")]
        let changes = ListChanges(from: old, to: new)
        #expect(changes == ListChanges(deletions: [0]))
        #expect(try #require(applyAsTableView(changes, to: old, reading: new)) == new)
    }

    @Test("steps: a rotation by one of 1000 elements is one move step, not one per element")
    func rotationIsOneStep() throws {
        let old = Array(0..<1000)
        let new = Array(1..<1000) + [0]
        let changes = ListChanges(from: old, to: new, id: \.self)
        #expect(changes.moves == [.init(from: 0, to: 999)])
        let steps = changes.steps(oldCount: old.count)
        #expect(steps.count == 1, "\(steps.count) steps")
        #expect(try #require(applyStepsChecked(steps, to: old, reading: new)) == new)
    }

    @Test("steps: insertions, moves and deletions of a large list stay in the steps' count")
    func largeSteps() throws {
        var generator = SeededGenerator(seed: 99)
        var nextID = 0
        let old = (0..<3000).map { _ -> Row in
            nextID += 1
            return Row(id: nextID, title: "r")
        }
        let new = randomEdit(old, rate: 0.05, nextID: &nextID, using: &generator)
        let changes = ListChanges(from: old, to: new)
        let steps = changes.steps(oldCount: old.count)
        #expect(
            steps.count <= changes.deletions.count + changes.insertions.count + changes.moves.count
                + changes.updates.count)
        #expect(try #require(applyStepsChecked(steps, to: old, reading: new)) == new)
    }

    @Test("ListChanges asks for each element's id a bounded number of times (O(n + m))")
    func idCallsAreLinear() {
        for (old, new) in [
            (Array(0..<5000), Array((0..<5000).reversed())), (Array(0..<5000), Array(2500..<7500)),
            (Array(0..<5000), (0..<5000).map { $0 % 7 }),
        ] {
            let calls = Locked(0)
            let updateCalls = Locked(0)
            let changes = ListChanges(
                from: old, to: new,
                id: { (element: Int) -> Int in
                    calls.mutate { $0 += 1 }
                    return element
                },
                isUpdated: { _, _ in
                    updateCalls.mutate { $0 += 1 }
                    return false
                })
            #expect(applyAsTableView(changes, to: old, reading: new) == new)
            #expect(calls.value <= 3 * (old.count + new.count), "\(calls.value) id calls")
            #expect(updateCalls.value <= min(old.count, new.count), "\(updateCalls.value) isUpdated calls")
        }
    }

    @Test("ObservableArray: steps of every change rebuild the array, equal elements and all", arguments: 0..<60)
    func observableArraySteps(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 5000)
        let items = ObservableArray((0..<Int.random(in: 0..<12, using: &generator)).map { "\($0 % 3)" })
        let shown = Locked(items.value)
        let broken = Locked<String?>(nil)
        let subscription = items.didChangeElements { changes, elements in
            let old = shown.value
            guard let stepped = applyStepsChecked(changes.steps(oldCount: old.count), to: old, reading: elements),
                stepped == elements
            else {
                broken.value = "steps of \(changes) do not turn \(old) into \(elements)"
                return
            }
            shown.value = stepped
        }
        for _ in 0..<15 {
            items.edit { edit in
                for _ in 0..<Int.random(in: 1...5, using: &generator) {
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0:
                        edit.insert(
                            "\(Int.random(in: 0..<3, using: &generator))",
                            at: Int.random(in: 0...edit.count, using: &generator))
                    case 1 where edit.count > 0: edit.remove(at: Int.random(in: 0..<edit.count, using: &generator))
                    case 2 where edit.count > 0: edit[Int.random(in: 0..<edit.count, using: &generator)] += "'"
                    case 3 where edit.count > 0:
                        edit.move(
                            from: Int.random(in: 0..<edit.count, using: &generator),
                            to: Int.random(in: 0..<edit.count, using: &generator))
                    case 4: edit.replaceAll(with: edit.elements.reversed())
                    case 5 where Int.random(in: 0..<4, using: &generator) == 0: edit.removeAll()
                    default: break
                    }
                }
            }
        }
        #expect(broken.value == nil)
        #expect(shown.value == items.value)
        withExtendedLifetime(subscription) {}
    }

    @Test(
        "ObservableArray of Identifiable elements: assigning the value keeps the identity of elements in both, as replaceAll(with:) does"
    )
    func assignmentKeepsIdentity() {
        let rows = ObservableArray([Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c")])
        let seen = Locked<[ListChanges]>([])
        let subscription = rows.didChangeElements { changes, _ in seen.mutate { $0.append(changes) } }
        rows.value = [Row(id: 2, title: "b"), Row(id: 3, title: "c"), Row(id: 1, title: "a")]
        #expect(seen.value == [ListChanges(moves: [.init(from: 0, to: 2)])])
        rows.binding.value = [Row(id: 2, title: "B"), Row(id: 3, title: "c"), Row(id: 1, title: "a")]
        #expect(seen.value.last == ListChanges(updates: [0]))
        withExtendedLifetime(subscription) {}

        // Identifiable, not Equatable: as replaceAll(with:) reports it in a concrete context.
        struct Tag: Identifiable, Sendable { var id: Int }
        let assigned = ObservableArray([Tag(id: 1), Tag(id: 2), Tag(id: 3)])
        let edited = ObservableArray([Tag(id: 1), Tag(id: 2), Tag(id: 3)])
        let changes = Locked<[ListChanges]>([])
        let subscriptions = [assigned, edited].map { array in
            array.didChangeElements { change, _ in changes.mutate { $0.append(change) } }
        }
        assigned.value = [Tag(id: 3), Tag(id: 1), Tag(id: 4)]
        edited.edit { $0.replaceAll(with: [Tag(id: 3), Tag(id: 1), Tag(id: 4)]) }
        #expect(changes.value.count == 2 && changes.value[0] == changes.value[1], "\(changes.value)")
        #expect(changes.value.first?.deletions.contains(0) == false, "\(changes.value)")  // 1 is kept
        withExtendedLifetime(subscriptions) {}
    }

    // MARK: ListUpdate against a sectioned table-view model

    /// Random sections: ids from `sectionIDs` (unique unless `repeatSections`), items with
    /// ids unique across the list.
    private static func randomSections(
        sectionIDs: Int, repeatSections: Bool, nextID: inout Int, using generator: inout SeededGenerator
    ) -> [ListSection<Int, Row>] {
        var pool = Array(0..<sectionIDs)
        pool.shuffle(using: &generator)
        let count = Int.random(in: 0...sectionIDs, using: &generator)
        return (0..<count).map { index in
            let id = repeatSections ? Int.random(in: 0..<sectionIDs, using: &generator) : pool[index]
            return ListSection(
                id: id,
                items: (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
                    nextID += 1
                    return Row(id: nextID, title: "r")
                })
        }
    }

    /// A random edit of `sections`: sections removed, added and moved; items removed, added,
    /// changed, moved within and between sections.
    private static func randomSectionEdit(
        _ sections: [ListSection<Int, Row>], sectionIDs: Int, repeatSections: Bool, nextID: inout Int,
        using generator: inout SeededGenerator
    ) -> [ListSection<Int, Row>] {
        var result = sections
        for _ in 0..<Int.random(in: 0...5, using: &generator) {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0 where !result.isEmpty: result.remove(at: Int.random(in: 0..<result.count, using: &generator))
            case 1:
                let used = Set(result.map(\.id))
                let free = (0..<sectionIDs).filter { repeatSections || !used.contains($0) }
                if let id = free.randomElement(using: &generator) {
                    nextID += 1
                    result.insert(
                        ListSection(id: id, items: [Row(id: nextID, title: "s")]),
                        at: Int.random(in: 0...result.count, using: &generator))
                }
            case 2 where !result.isEmpty:
                let section = result.remove(at: Int.random(in: 0..<result.count, using: &generator))
                result.insert(section, at: Int.random(in: 0...result.count, using: &generator))
            case 3 where !result.isEmpty:
                let s = Int.random(in: 0..<result.count, using: &generator)
                nextID += 1
                result[s].items.insert(
                    Row(id: nextID, title: "n"), at: Int.random(in: 0...result[s].items.count, using: &generator))
            case 4, 5:
                let filled = result.indices.filter { !result[$0].items.isEmpty }
                guard let s = filled.randomElement(using: &generator) else { break }
                let row = result[s].items.remove(at: Int.random(in: 0..<result[s].items.count, using: &generator))
                if Bool.random(using: &generator) { break }  // removed
                let t = Int.random(in: 0..<result.count, using: &generator)
                result[t].items.insert(row, at: Int.random(in: 0...result[t].items.count, using: &generator))
            case 6:
                let filled = result.indices.filter { !result[$0].items.isEmpty }
                guard let s = filled.randomElement(using: &generator) else { break }
                result[s].items[Int.random(in: 0..<result[s].items.count, using: &generator)].title += "'"
            case 7 where !result.isEmpty: result[Int.random(in: 0..<result.count, using: &generator)].items.reverse()
            default: break
            }
        }
        return result
    }

    @Test(
        "property: a ListUpdate, applied as a table view applies a batch, turns the old sections into the new ones",
        arguments: 0..<300)
    func sectionedUpdates(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 90_000)
        var nextID = 0
        let repeatSections = seed % 3 == 2
        let source = Stored(
            Self.randomSections(sectionIDs: 5, repeatSections: repeatSections, nextID: &nextID, using: &generator))
        let dataSource = ListDataSource(sections: source, isUpdated: { $0 != $1 })
        let shown = Locked(source.value.map { ($0.id, $0.items) })
        let broken = Locked<String?>(nil)
        dataSource.connect(update: { [weak dataSource] update in
            guard let dataSource else { return }
            let new = (0..<dataSource.numberOfSections).map { s in
                (
                    dataSource.sectionID(at: s),
                    (0..<dataSource.numberOfItems(inSection: s)).map {
                        dataSource.item(at: ListIndex(section: s, item: $0))
                    }
                )
            }
            let old = shown.value
            switch applyAsSectionedTableView(update, to: old, reading: new) {
            case .success(let applied) where applied.map(\.0) == new.map(\.0) && applied.map(\.1) == new.map(\.1):
                shown.value = applied
            case .success(let applied):
                broken.value = "\(update) turns \(old) into \(applied), not \(new)"
            case .failure(let error):
                broken.value = "\(update) for \(old) → \(new): \(error.reason)"
            }
        })
        for _ in 0..<8 where broken.value == nil {
            source.value = Self.randomSectionEdit(
                source.value, sectionIDs: 5, repeatSections: repeatSections, nextID: &nextID, using: &generator)
        }
        #expect(broken.value == nil, "seed \(seed)")
        #expect(
            shown.value.map(\.0) == source.value.map(\.id) && shown.value.map(\.1) == source.value.map(\.items),
            "seed \(seed)")
    }

    @Test("a repeated section id: the items of a section are diffed against the old section the section diff kept")
    func repeatedSectionID() {
        let old = [
            ListSection(id: "A", items: [Row(id: 1, title: "1")]),
            ListSection(id: "B", items: [Row(id: 2, title: "2")]),
            ListSection(id: "A", items: [Row(id: 3, title: "3")]),
        ]
        let new = [
            ListSection(id: "B", items: [Row(id: 2, title: "2")]),
            ListSection(id: "A", items: [Row(id: 3, title: "3")]),
        ]
        let source = Stored(old)
        let dataSource = ListDataSource(sections: source)
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        source.value = new
        guard let update = updates.value.first else {
            Issue.record("no update")
            return
        }
        switch applyAsSectionedTableView(
            update, to: old.map { ($0.id, $0.items) }, reading: new.map { ($0.id, $0.items) })
        {
        case .success(let applied): #expect(applied.map(\.1) == new.map(\.items), "\(update)")
        case .failure(let error): Issue.record("\(update): \(error.reason)")
        }
    }

    // MARK: Selection

    @Test(
        "property: after each change the selection is the selected ids still shown, at their new positions",
        arguments: 0..<100)
    func selectionFollowsChanges(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 70_000)
        var nextID = 0
        let source = Stored(
            Self.randomSections(sectionIDs: 4, repeatSections: false, nextID: &nextID, using: &generator))
        let selection = Stored<Set<Int>>([])
        let dataSource = ListDataSource(sections: source, isUpdated: { $0 != $1 })
        dataSource.bindSelection(selection)
        let shownSelection = Locked<[ListIndex]>([])
        dataSource.connect(update: { _ in }, selection: { shownSelection.value = $0 })
        for _ in 0..<8 {
            let allIDs = source.value.flatMap(\.items).map(\.id)
            selection.value = Set(allIDs.filter { _ in Int.random(in: 0..<3, using: &generator) == 0 })
            let before = selection.value
            source.value = Self.randomSectionEdit(
                source.value, sectionIDs: 4, repeatSections: false, nextID: &nextID, using: &generator)
            let shownIDs = Set(source.value.flatMap(\.items).map(\.id))
            #expect(selection.value == before.intersection(shownIDs), "seed \(seed)")
            var expected: [ListIndex] = []
            for (s, section) in source.value.enumerated() {
                for (i, item) in section.items.enumerated() where before.contains(item.id) {
                    expected.append(ListIndex(section: s, item: i))
                }
            }
            #expect(dataSource.selectedIndices == expected, "seed \(seed)")
            #expect(shownSelection.value == expected, "seed \(seed)")
        }
    }

    @Test("an item shown twice and removed once stays selected")
    func duplicateItemStaysSelected() {
        let source = Stored([Row(id: 1, title: "x"), Row(id: 1, title: "x"), Row(id: 2, title: "y")])
        let selection = Stored<Set<Int>>([1])
        let dataSource = ListDataSource(items: source)
        dataSource.bindSelection(selection)
        dataSource.connect(update: { _ in })
        source.value = [Row(id: 1, title: "x"), Row(id: 2, title: "y")]
        #expect(selection.value == [1])
        #expect(dataSource.selectedIndices == [ListIndex(item: 0)])
    }

    @Test("a user's move to a section that does not exist stops with the data source's message")
    func moveToMissingSection() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let dataSource = ListDataSource(items: Stored([Row(id: 1, title: "1"), Row(id: 2, title: "2")]))
                dataSource.allowsMoving = true
                dataSource.userDidMove(from: ListIndex(item: 0), to: ListIndex(section: 3, item: 0))
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("is not a valid destination"))
    }
}

// MARK: Models

/// `applySteps`, also checking that an insertion lands in the list as it then is and a move
/// goes to an index of the list after the element is taken out.
func applyStepsChecked<Element>(_ steps: [ListChanges.Step], to old: [Element], reading new: [Element]) -> [Element]? {
    var list = old
    var reloading = false
    for step in steps {
        switch step {
        case .delete(let i):
            guard !reloading, list.indices.contains(i) else { return nil }
            list.remove(at: i)
        case .insert(let i):
            guard !reloading, (0...list.count).contains(i), new.indices.contains(i) else { return nil }
            list.insert(new[i], at: i)
        case .move(let from, let to):
            guard !reloading, list.indices.contains(from), list.indices.contains(to) else { return nil }
            list.insert(list.remove(at: from), at: to)
        case .reload(let i):
            reloading = true  // reloads come last
            guard list.indices.contains(i), new.indices.contains(i) else { return nil }
            list[i] = new[i]
        }
    }
    return list
}

/// Why a sectioned update cannot be applied.
struct SectionedUpdateError: Error {
    var reason: String
}

/// Applies `update` to `old` as `UITableView.performBatchUpdates` does, and returns the
/// sections it then shows (inserted sections and items, and reloaded items, read from
/// `new`). Checks UIKit's rules: section and item indices in range and used once, no item
/// change in a deleted or inserted section, no item both deleted and moved or reloaded.
func applyAsSectionedTableView<SectionID, Item>(
    _ update: ListUpdate, to old: [(SectionID, [Item])], reading new: [(SectionID, [Item])]
) -> Result<[(SectionID, [Item])], SectionedUpdateError> {
    func fail(_ reason: String) -> Result<[(SectionID, [Item])], SectionedUpdateError> {
        .failure(SectionedUpdateError(reason: reason))
    }
    // Sections: which old section each new one comes from.
    let sections = update.sections
    let deletedSections = Set(sections.deletions)
    let insertedSections = Set(sections.insertions)
    guard deletedSections.count == sections.deletions.count, insertedSections.count == sections.insertions.count,
        deletedSections.allSatisfy({ old.indices.contains($0) }), sections.updates.isEmpty
    else { return fail("invalid section deletions or insertions") }
    guard
        let sectionOrder = applyAsTableView(
            sections, to: Array(old.indices), reading: Array(repeating: -1, count: new.count))
    else { return fail("invalid section changes") }
    // sectionOrder[t]: the old index of new section t, -1 for an inserted one.
    for t in new.indices where (sectionOrder[t] < 0) != insertedSections.contains(t) {
        return fail("section \(t) inconsistent")
    }
    var oldSectionToNew = [Int: Int]()
    for (t, s) in sectionOrder.enumerated() where s >= 0 { oldSectionToNew[s] = t }

    // Items, grouped by the section they go to.
    var deletions = [Int: Set<Int>]()
    var updates = [Int: Set<Int>]()
    var moveSources = [Int: Set<Int>]()
    var insertions = [Int: Set<Int>]()
    var moveTargets = [Int: [Int: Item]]()
    for index in update.itemDeletions {
        guard oldSectionToNew[index.section] != nil, old[index.section].1.indices.contains(index.item),
            deletions[index.section, default: []].insert(index.item).inserted
        else { return fail("bad item deletion \(index)") }
    }
    for index in update.itemUpdates {
        guard oldSectionToNew[index.section] != nil, old[index.section].1.indices.contains(index.item),
            updates[index.section, default: []].insert(index.item).inserted
        else { return fail("bad item update \(index)") }
    }
    for move in update.itemMoves {
        guard oldSectionToNew[move.from.section] != nil, old[move.from.section].1.indices.contains(move.from.item),
            moveSources[move.from.section, default: []].insert(move.from.item).inserted
        else { return fail("bad item move source \(move.from)") }
        guard new.indices.contains(move.to.section), sectionOrder[move.to.section] >= 0,
            moveTargets[move.to.section, default: [:]].updateValue(
                old[move.from.section].1[move.from.item], forKey: move.to.item) == nil
        else { return fail("bad item move target \(move.to)") }
    }
    for index in update.itemInsertions {
        guard new.indices.contains(index.section), sectionOrder[index.section] >= 0,
            insertions[index.section, default: []].insert(index.item).inserted
        else { return fail("bad item insertion \(index)") }
    }
    for (s, items) in deletions
    where !items.isDisjoint(with: updates[s, default: []]) || !items.isDisjoint(with: moveSources[s, default: []]) {
        return fail("an item of section \(s) deleted and moved or reloaded")
    }
    for (s, items) in updates where !items.isDisjoint(with: moveSources[s, default: []]) {
        return fail("an item of section \(s) moved and reloaded")
    }

    var result: [(SectionID, [Item])] = []
    for t in new.indices {
        let s = sectionOrder[t]
        if s < 0 {
            result.append(new[t])
            continue
        }
        let staying = old[s].1.indices.filter {
            !deletions[s, default: []].contains($0) && !moveSources[s, default: []].contains($0)
        }
        let targets = moveTargets[t, default: [:]]
        let inserted = insertions[t, default: []]
        guard inserted.isDisjoint(with: targets.keys) else {
            return fail("an item of section \(t) inserted and moved to")
        }
        let count = staying.count + targets.count + inserted.count
        guard count == new[t].1.count, inserted.allSatisfy({ $0 < count }), targets.keys.allSatisfy({ $0 < count })
        else { return fail("section \(t) would have \(count) items, not \(new[t].1.count)") }
        var next = staying.makeIterator()
        var items: [Item] = []
        for j in 0..<count {
            if inserted.contains(j) {
                items.append(new[t].1[j])
            } else if let moved = targets[j] {
                items.append(moved)
            } else {
                let i = next.next()!
                items.append(updates[s, default: []].contains(i) ? new[t].1[j] : old[s].1[i])
            }
        }
        result.append((old[s].0, items))
    }
    return .success(result)
}
