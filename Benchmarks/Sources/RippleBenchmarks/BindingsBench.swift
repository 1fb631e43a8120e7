import Ripple
import RippleBindings

// The bindings benchmarks of issue 13:
//
// - diffing two arrays of 10 000 identifiable items with 1 % inserted, 1 % deleted and 1 %
//   moved, next to the standard library's `CollectionDifference` (Myers, with
//   `inferringMoves()`) on the same arrays, in the same run;
// - a list data source applying 1 000 single-item changes (insert, delete, update, move in
//   turn) to a list of 1 000 items, each computing and delivering one batch update, next to a
//   loop that computes the standard library's difference for the same 1 000 changes.
//
// Every row asserts what it did, in quick mode too.

struct BenchRow: Identifiable, Hashable, Sendable {
    var id: Int
    var title: String
}

enum BindingsBench {
    static var isSelected: Bool {
        guard let filter = config.filter else { return true }
        return "bindings".localizedCaseInsensitiveContains(filter) || filter.localizedCaseInsensitiveContains("binding")
    }

    typealias Line = SectionReport.Line
    typealias Report = SectionReport

    /// Printed above the section's rows.
    static let header =
        "Bindings (issue 13): medians; \"Ripple Nx\" = Ripple's median ÷ the baseline's (below 1: Ripple is faster)."

    /// `count` items, and a copy with 1 % deleted, 1 % moved and 1 % inserted.
    static func arrays(count: Int) -> (old: [BenchRow], new: [BenchRow]) {
        var generator = SplitMix64(seed: 42)
        let old = (0..<count).map { BenchRow(id: $0, title: "row \($0)") }
        var new = old
        let onePercent = count / 100
        for _ in 0..<onePercent { new.remove(at: Int.random(in: 0..<new.count, using: &generator)) }
        for _ in 0..<onePercent {
            let row = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
            new.insert(row, at: Int.random(in: 0...new.count, using: &generator))
        }
        for i in 0..<onePercent {
            new.insert(BenchRow(id: count + i, title: "new \(i)"), at: Int.random(in: 0...new.count, using: &generator))
        }
        return (old, new)
    }

    static func milliseconds(samples: Int, _ body: () -> Void) -> Stats {
        sample(maximum: samples, minimum: 1, budget: config.quick ? 0.5 : 5) { timed(body) }
    }

    static func ratio(_ ripple: Stats, _ baseline: Stats) -> String {
        "Ripple \(format(ripple.median / baseline.median))x"
    }

    static func measure() -> Report {
        var report = Report(section: "bindings", header: header)
        let samples = config.quick ? 3 : 21

        // 1. The diff.
        let (old, new) = arrays(count: 10_000)
        var changes = ListChanges()
        let ripple = milliseconds(samples: samples) { changes = ListChanges(from: old, to: new) }
        var difference: CollectionDifference<BenchRow>?
        let standard = milliseconds(samples: samples) { difference = new.difference(from: old).inferringMoves() }
        report.check(apply(changes, to: old, reading: new) == new, "the diff does not rebuild the new array")
        report.check(
            changes.deletions.count >= 100 && changes.insertions.count >= 100,
            "expected 100 deletions and 100 insertions, got \(changes)")
        report.check(old.applying(difference!) == new, "CollectionDifference does not rebuild the new array")
        report.add(
            "diff 10 000 items (1 % ins/del/move)",
            "Ripple ListChanges \(format(ripple.median)) ms (min \(format(ripple.min))) | CollectionDifference.inferringMoves \(format(standard.median)) ms | \(ratio(ripple, standard)) | \(changes.deletions.count) del, \(changes.insertions.count) ins, \(changes.moves.count) moves"
        )

        // 2. A data source applying 1 000 single-item changes.
        let changeCount = 1_000
        var updates = 0
        let dataSource = milliseconds(samples: config.quick ? 1 : 11) {
            let source = Stored((0..<1_000).map { BenchRow(id: $0, title: "row \($0)") })
            let list = ListDataSource(items: source)
            let delivered = Counter()
            list.connect(update: { _ in delivered.n += 1 })
            var nextID = 1_000
            for step in 0..<changeCount {
                let count = source.value.count
                switch step % 4 {
                case 0:
                    source.value.insert(BenchRow(id: nextID, title: "new"), at: (step * 7) % count)
                    nextID += 1
                case 1: source.value.remove(at: (step * 13) % count)
                case 2: source.value[(step * 17) % count].title += "!"
                default: source.value.swapAt((step * 19) % count, (step * 23) % count)
                }
            }
            updates = delivered.n
            report.check(
                list.numberOfItems(inSection: 0) == source.value.count,
                "the data source shows \(list.numberOfItems(inSection: 0)) items, the source has \(source.value.count)")
        }
        report.check(
            updates == changeCount || updates >= changeCount - changeCount / 100,
            "expected about \(changeCount) updates, got \(updates)")
        let plainLoop = milliseconds(samples: config.quick ? 1 : 11) {
            var rows = (0..<1_000).map { BenchRow(id: $0, title: "row \($0)") }
            var nextID = 1_000
            var applied = 0
            for step in 0..<changeCount {
                let before = rows
                let count = rows.count
                switch step % 4 {
                case 0:
                    rows.insert(BenchRow(id: nextID, title: "new"), at: (step * 7) % count)
                    nextID += 1
                case 1: rows.remove(at: (step * 13) % count)
                case 2: rows[(step * 17) % count].title += "!"
                default: rows.swapAt((step * 19) % count, (step * 23) % count)
                }
                if !rows.difference(from: before).inferringMoves().isEmpty { applied += 1 }
            }
            blackHole(applied)
        }
        report.add(
            "list data source, 1 000 single-item changes",
            "Ripple \(format(dataSource.median)) ms (min \(format(dataSource.min))), \(format(dataSource.median * 1000 / Double(changeCount))) µs per change, \(updates) updates | a loop of CollectionDifference for the same changes \(format(plainLoop.median)) ms | \(ratio(dataSource, plainLoop))"
        )
        return report
    }

    /// Applies `changes` to `old` as a table view's batch update does.
    static func apply(_ changes: ListChanges, to old: [BenchRow], reading new: [BenchRow]) -> [BenchRow] {
        let deleted = Set(changes.deletions).union(changes.moves.map(\.from))
        let updated = Set(changes.updates)
        var result = [BenchRow?](repeating: nil, count: new.count)
        for j in changes.insertions { result[j] = new[j] }
        for move in changes.moves { result[move.to] = old[move.from] }
        var staying = old.indices.lazy.filter { !deleted.contains($0) }.makeIterator()
        for j in result.indices where result[j] == nil {
            guard let i = staying.next() else { return [] }
            result[j] = updated.contains(i) ? new[j] : old[i]
        }
        return result.compactMap { $0 }
    }
}
