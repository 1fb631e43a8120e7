import Testing
@testable import Ripple

@Suite("Scale")
struct ScaleTests {
    #if RIPPLE_INVARIANTS
    @Test("releasing readers of many sources in random order does amortized O(1) work per unlink")
    func unsubscribingIsAmortizedConstant() {
        // Each reaction reads 9 sources (observers of more than 8 once lost their slot when a
        // compaction moved them, and each removal then scanned the list). Work is counted
        // (entries of the sources' observer lists looked at), not timed: each unlink looks at
        // its own slot, and at most two more entries amortized (its tombstone once, when it
        // is trimmed or compacted away, and a live entry a compaction moves).
        let sources = (0..<9).map { Stored($0) }
        func visits() -> Int { sources.reduce(0) { $0 + $1.observerSlotsVisited } }
        for count in [1_000, 2_000] {
            var subscriptions: [Subscription?] = (0..<count).map { _ in
                observe { for source in sources { _ = source.value } }
            }
            var order = Array(0..<count)
            var generator = SeededGenerator(seed: UInt64(count))
            order.shuffle(using: &generator)
            let before = visits()
            for index in order {
                subscriptions[index]?.cancel()
                subscriptions[index] = nil
            }
            let unlinks = count * sources.count
            let visited = visits() - before
            #expect(visited <= 4 * unlinks, "\(visited) observer slots looked at for \(unlinks) unlinks")
            #expect(sources.allSatisfy { $0.observerCount == 0 && $0.observers.isEmpty })
        }
    }
    #endif
}
