import CMallocInfo
import Foundation
import RippleStore

// The entity benchmarks of issue 12: RippleStore's EntityTable next to the plain alternatives
// measured in the same run:
//
// - "dictionary store": what a Verge-style store without an ORM does: the entities in a
//   `[Int: Todo]` inside the state, a commit copies the state (and, because the store keeps the
//   previous state for its subscribers, the dictionary), and every per-entity subscriber
//   compares its entity on every commit.
// - "sorted array": Redux Toolkit's entity adapter with a sort comparer: a dictionary and an
//   array of ids re-sorted after each upsert batch.
//
// Every row asserts what it did (counts of notified observers, contents), in quick mode too.

/// An entity of the benchmarks, with an ordered index over its title.
struct BenchTodo: Identifiable, Equatable, Sendable, IndexedEntity {
    var id: Int
    var title: String
    var listID: Int?
    var isDone = false

    static var indexes: [EntityIndex<BenchTodo>] { [.ordered(by: \.title)] }
}

/// The same entity without an index.
struct BenchPlainTodo: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var listID: Int?
    var isDone = false
}

struct BenchEntityState: Equatable, Sendable {
    var todos = EntityTable<BenchPlainTodo>()
    var sorted = EntityTable<BenchTodo>()
}

struct BenchDictionaryState: Equatable, Sendable {
    var todos: [Int: BenchPlainTodo] = [:]
}

enum EntityBench {
    static var isSelected: Bool {
        guard let filter = config.filter else { return true }
        return "entities".localizedCaseInsensitiveContains(filter) || filter.localizedCaseInsensitiveContains("entit")
    }

    typealias Line = SectionReport.Line
    typealias Report = SectionReport

    /// Printed above the section's rows.
    static let header =
        "Entities (issue 12): medians; \"Ripple Nx\" = Ripple's median ÷ the baseline's (below 1: Ripple is faster)."

    static let entityCount = 100_000
    static let observerCount = 10_000

    static func todo(_ id: Int) -> BenchPlainTodo {
        BenchPlainTodo(id: id, title: "todo \(id)", listID: id % 100)
    }

    /// Median of `samples` runs of `body`, in milliseconds.
    static func milliseconds(samples: Int, _ body: () -> Void) -> Stats {
        sample(maximum: samples, minimum: 1, budget: config.quick ? 0.5 : 5) { timed(body) }
    }

    static func measure() -> Report {
        var report = Report(section: "entities", header: header)
        let samples = config.quick ? 1 : 5

        // 1. Inserting 100 000 entities in one commit.
        let insertRipple = milliseconds(samples: samples) {
            let store = Store<BenchEntityState, Never>(initialState: BenchEntityState())
            store.commit { state in
                for id in 0..<entityCount { state.todos.upsert(todo(id)) }
            }
            blackHole(store.currentState.todos.count)
        }
        let insertDictionary = milliseconds(samples: samples) {
            var state = BenchDictionaryState()
            for id in 0..<entityCount { state.todos[id] = todo(id) }
            blackHole(state.todos.count)
        }
        report.add(
            "insert 100 000 in one commit: EntityTable in a Store",
            "\(format(insertRipple.median)) ms (\(format(insertRipple.median * 1e6 / Double(entityCount))) ns per entity)"
        )
        report.add(
            "  same into a [Int: Todo] (no store, the floor)",
            "\(format(insertDictionary.median)) ms (Ripple \(format(insertRipple.median / insertDictionary.median))x)")

        // Memory per entity: the table alone, and a dictionary of the same entities.
        var keep: [Any] = []
        let tableBytes = bytes {
            var table = EntityTable<BenchPlainTodo>()
            for id in 0..<entityCount { table.upsert(todo(id)) }
            keep.append(table)
        }
        let dictionaryBytes = bytes {
            var dictionary: [Int: BenchPlainTodo] = [:]
            for id in 0..<entityCount { dictionary[id] = todo(id) }
            keep.append(dictionary)
        }
        keep.removeAll()
        let entityBytes = MemoryLayout<BenchPlainTodo>.stride
        report.add(
            "memory per entity: EntityTable",
            "\(format(tableBytes / Double(entityCount))) bytes (the entity itself: \(entityBytes), plus its title's heap storage when longer than 15 bytes)"
        )
        report.add("  same in a [Int: Todo]", "\(format(dictionaryBytes / Double(entityCount))) bytes")

        // 2. Updating 1 of 100 000 with 10 000 per-entity observers.
        var initial = BenchEntityState()
        for id in 0..<entityCount { initial.todos.upsert(todo(id)) }
        var storeBytes = 0.0
        var observerBytes = 0.0
        let store = Store<BenchEntityState, Never>(initialState: BenchEntityState())
        storeBytes = bytes {
            store.commit { $0 = initial }
        }
        let notified = Counter()
        var subscriptions: [Subscription] = []
        subscriptions.reserveCapacity(observerCount)
        var entities: [Derived<BenchPlainTodo?>] = []
        entities.reserveCapacity(observerCount)
        observerBytes = bytes {
            for index in 0..<observerCount {
                let entity = store.entity(index * 10, in: \.todos)
                entities.append(entity)
                subscriptions.append(entity.sinkValue(dropsFirst: true) { _ in notified.n += 1 })
            }
        }
        let commits = config.quick ? 200 : 2_000
        var round = 0
        let updateRipple = sample(maximum: samples, minimum: 1, budget: config.quick ? 0.5 : 5) {
            timed {
                for _ in 0..<commits {
                    round += 1
                    let title = "round \(round)"
                    store.commit { state in
                        try? state.todos.update(500) { $0.title = title }
                    }
                }
            }
        }
        report.check(
            notified.n == round,
            "updating todo 500 \(round) times notified \(notified.n) observers (expected one per commit)")
        let updateNanoseconds = updateRipple.median * 1e6 / Double(commits)

        // The same with no per-entity observer, to show what the observers add.
        let bare = Store<BenchEntityState, Never>(initialState: initial)
        let updateBare = sample(maximum: samples, minimum: 1, budget: config.quick ? 0.5 : 5) {
            timed {
                for index in 0..<commits {
                    bare.commit { state in try? state.todos.update(500) { $0.title = "bare \(index)" } }
                }
            }
        }
        let bareNanoseconds = updateBare.median * 1e6 / Double(commits)

        // The dictionary store: copies the dictionary per commit, every subscriber compares.
        let dictionaryStore = VergeStyleStore(
            BenchDictionaryState(todos: Dictionary(uniqueKeysWithValues: (0..<entityCount).map { ($0, todo($0)) })))
        let dictionaryNotified = Counter()
        for index in 0..<observerCount {
            let id = index * 10
            dictionaryStore.sink { changes in
                if changes.previous.todos[id] != changes.current.todos[id] { dictionaryNotified.n += 1 }
            }
        }
        let dictionaryCommits = config.quick ? 20 : 100
        let updateDictionary = sample(maximum: samples, minimum: 1, budget: config.quick ? 0.5 : 5) {
            timed {
                for index in 0..<dictionaryCommits {
                    dictionaryStore.commit { $0.todos[500]?.title = "dictionary \(index)" }
                }
            }
        }
        let dictionaryNanoseconds = updateDictionary.median * 1e6 / Double(dictionaryCommits)
        report.check(dictionaryNotified.n > 0, "the dictionary store notified no one")
        report.add(
            "update 1 of 100 000, 10 000 per-entity observers",
            "\(format(updateNanoseconds / 1e3)) µs per commit, 1 observer notified")
        report.add("  same, no per-entity observer", "\(format(bareNanoseconds / 1e3)) µs per commit")
        report.add(
            "  dictionary store, 10 000 comparing subscribers",
            "\(format(dictionaryNanoseconds / 1e3)) µs per commit (Ripple \(format(updateNanoseconds / dictionaryNanoseconds))x)"
        )
        report.add(
            "memory per per-entity observer (entity(_:in:) + sinkValue)",
            "\(format(observerBytes / Double(observerCount))) bytes")
        report.add(
            "whole store: 100 000 entities + 10 000 observers",
            "\(format((storeBytes + observerBytes) / 1_048_576)) MiB")
        withExtendedLifetime((subscriptions, entities, store, bare)) {}

        // 3. Upserting 1 000 into 100 000 kept sorted by title.
        var sortedInitial = EntityTable<BenchTodo>()
        for id in 0..<entityCount { sortedInitial.upsert(BenchTodo(id: id, title: "todo \(id)")) }
        let sortedStore = Store<BenchEntityState, Never>(initialState: BenchEntityState(sorted: sortedInitial))
        var batch = 0
        let upsertRipple = milliseconds(samples: samples) {
            batch += 1
            let offset = entityCount + batch * 1_000
            sortedStore.commit { state in
                for index in 0..<1_000 {
                    // Half new, half replacing an existing entity with a new title.
                    let id = index % 2 == 0 ? offset + index : (index * 97) % entityCount
                    state.sorted.upsert(BenchTodo(id: id, title: "upsert \(batch) \(index)"))
                }
            }
        }
        let ordered = sortedStore.currentState.sorted.ids(sortedBy: \.title)
        report.check(ordered.count == sortedStore.currentState.sorted.count, "the ordered index lost entities")
        var dictionary = Dictionary(
            uniqueKeysWithValues: (0..<entityCount).map { ($0, BenchTodo(id: $0, title: "todo \($0)")) })
        var sortedIDs = dictionary.values.sorted { $0.title < $1.title }.map(\.id)
        var redux = 0
        let upsertRedux = milliseconds(samples: samples) {
            redux += 1
            let offset = entityCount + redux * 1_000
            for index in 0..<1_000 {
                let id = index % 2 == 0 ? offset + index : (index * 97) % entityCount
                dictionary[id] = BenchTodo(id: id, title: "upsert \(redux) \(index)")
            }
            sortedIDs = dictionary.values.sorted { $0.title < $1.title }.map(\.id)
        }
        report.check(sortedIDs.count == dictionary.count, "the re-sorted baseline lost entities")
        report.add(
            "upsert 1 000 into 100 000 with an ordered index",
            "\(format(upsertRipple.median)) ms per commit (incremental)")
        report.add(
            "  dictionary + ids re-sorted (entity adapter with sortComparer)",
            "\(format(upsertRedux.median)) ms (Ripple \(format(upsertRipple.median / upsertRedux.median))x)")

        // 4. One entity's commit at 1 000, 100 000 and 1 000 000 entities: what a commit costs
        // as the table grows (the docs promise O(k log n) for k changed entities).
        scaling(&report)
        return report
    }

    /// The sizes of the scaling rows.
    static let scalingSizes = [1_000, 100_000, 1_000_000]

    /// Median µs per commit of `commits` commits, each made by `change(store, round)`.
    static func microsecondsPerCommit<State>(
        _ store: Store<State, Never>, commits: Int, _ change: (Store<State, Never>, Int) -> Void
    ) -> Double {
        var round = 0
        let stats = sample(maximum: config.quick ? 1 : 5, minimum: 1, budget: config.quick ? 0.5 : 5) {
            timed {
                for _ in 0..<commits {
                    round += 1
                    change(store, round)
                }
            }
        }
        return stats.median * 1e3 / Double(commits)
    }

    /// One entity updated, moved (deleted and inserted again), its ordered-index key changed,
    /// inserted and deleted, per commit, at each size: each row should grow as log n.
    static func scaling(_ report: inout Report) {
        var rows: [String: [String]] = [:]
        let names = [
            "update 1 (no index)", "move 1: delete + insert (no index)",
            "change 1 ordered-index key", "insert 1 + delete 1 (ordered index)",
        ]
        for size in scalingSizes {
            // Fewer commits at the larger sizes keep the row's time bounded (before: 0.2 s each).
            let commits = size >= 1_000_000 ? 40 : size >= 100_000 ? 200 : 2_000
            var plain = EntityTable<BenchPlainTodo>()
            var sorted = EntityTable<BenchTodo>()
            for id in 0..<size {
                plain.upsert(todo(id))
                sorted.upsert(BenchTodo(id: id, title: "todo \(id)"))
            }
            let store = Store<BenchEntityState, Never>(initialState: BenchEntityState(todos: plain, sorted: sorted))
            plain = EntityTable()
            sorted = EntityTable()
            let update = microsecondsPerCommit(store, commits: commits) { store, round in
                store.commit { state in
                    try? state.todos.update((round &* 7_919) % size) { $0.title = "update \(round)" }
                }
            }
            let move = microsecondsPerCommit(store, commits: commits) { store, round in
                store.commit { state in
                    if let moved = state.todos.delete((round &* 7_919) % size) { state.todos.upsert(moved) }
                }
            }
            let key = microsecondsPerCommit(store, commits: commits) { store, round in
                store.commit { state in try? state.sorted.update((round &* 7_919) % size) { $0.title = "key \(round)" }
                }
            }
            let insertDelete = microsecondsPerCommit(store, commits: commits) { store, round in
                store.commit { state in
                    state.sorted.upsert(BenchTodo(id: size + round, title: "new \(round)"))
                    state.sorted.delete(size + round - 1)
                }
            }
            let final = store.currentState
            report.check(
                final.todos.count == size && final.sorted.count == size + 1,
                "the scaling rows at \(size) changed the tables' counts")
            report.check(
                final.sorted.ids(sortedBy: \.title).count == size + 1, "the ordered index at \(size) lost entities")
            for (name, value) in zip(names, [update, move, key, insertDelete]) {
                rows[name, default: []].append("\(format(value)) µs")
            }
        }
        let sizes = scalingSizes.map { $0 >= 1_000_000 ? "\($0 / 1_000_000)M" : "\($0 / 1_000)k" }.joined(
            separator: " / ")
        for name in names {
            report.add("\(name), µs per commit at \(sizes)", rows[name, default: []].joined(separator: " / "))
        }
    }

    /// Bytes malloc holds more after `body` than before.
    static func bytes(_ body: () -> Void) -> Double {
        let before = bench_malloc_in_use()
        body()
        let after = bench_malloc_in_use()
        return Double(after - before)
    }
}
