import Testing
@testable import Ripple

@Suite("Scale")
struct ScaleTests {
    /// The length of the first-read chain: a million in release builds, a tenth of it in
    /// debug builds, and a tenth of that under a sanitizer (still more than twice what
    /// overflowed an 8 MiB stack before nested refreshes moved to fresh stacks).
    #if DEBUG
    static let chainLength = Sanitizers.isActive ? 10_000 : 100_000
    #else
    static let chainLength = Sanitizers.isActive ? 100_000 : 1_000_000
    #endif

    /// `length` computed values, each its predecessor plus one, none evaluated yet.
    static func unevaluatedChain(from head: Stored<Int>, length: Int, evaluations: Cell<Int>) -> [Computed<Int>] {
        var chain = [
            Computed {
                evaluations.value += 1; return head.value + 1
            }
        ]
        chain.reserveCapacity(length)
        for _ in 1..<length {
            let previous = chain[chain.count - 1]
            chain.append(
                Computed {
                    evaluations.value += 1; return previous.value + 1
                })
        }
        return chain
    }

    @Test("the first read of a chain that was never evaluated evaluates each node once, without overflowing the stack")
    func firstReadOfLongChain() {
        let head = Stored(0)
        // Derivations run one at a time (the graph is held), on this thread or on a helper it waits for.
        let evaluations = Cell(0)
        let chain = Self.unevaluatedChain(from: head, length: Self.chainLength, evaluations: evaluations)
        #expect(chain[chain.count - 1].value == Self.chainLength)
        #expect(evaluations.value == Self.chainLength)
        #expect(chain[chain.count / 2].value == Self.chainLength / 2 + 1)
        #expect(evaluations.value == Self.chainLength)
    }

    @Test("a long chain first evaluated by a reaction follows every later write, once per node per write")
    func laterWritesToLongChain() {
        let head = Stored(0)
        let evaluations = Cell(0)
        let length = Self.chainLength / 4
        let chain = Self.unevaluatedChain(from: head, length: length, evaluations: evaluations)
        let end = chain[chain.count - 1]
        // A short path to the head next to the long one: never a mix of old and new.
        let short = Computed { head.value }
        let pair = Computed { [short.value, end.value] }
        let seen = Recorder<[Int]>()
        let subscription = observe { seen.append(pair.value) }
        #expect(evaluations.value == length)
        for value in 1...3 { head.value = value }
        #expect(seen.all == (0...3).map { [$0, $0 + length] })
        #expect(evaluations.value == 4 * length)
        subscription.cancel()
        // Unobserved now: a read verifies the chain and re-evaluates it once.
        head.value = 10
        #expect(end.value == 10 + length)
        #expect(evaluations.value == 5 * length)
    }

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
            #expect(
                sources.allSatisfy { source in
                    source.observerCountForTesting == 0 && _graph.withLock { held in held[observers: source].isEmpty }
                })
        }
    }
    #endif
}
