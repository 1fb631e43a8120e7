import Testing
@testable import Ripple

/// A value that holds references (an array here), read by one thread while others replace it,
/// must be retained by the reader before the graph's lock is released: after that, the thread
/// that replaced it may free it at any moment. The optimized fast read path once retained the
/// copy only after the unlock (see `_Graph+FastRead.swift`); these tests catch that under the
/// release AddressSanitizer run, and `.ci/check-fast-read` checks the optimized code itself.
/// Bounded by iteration counts.
@Suite("Values that hold references, read while other threads replace them")
struct ValueLifetimeTests {
    static let iterations = 20_000

    @Test("a top-level read of a computed array keeps its copy alive while other threads recompute it")
    func untrackedReadsOfRecomputedArray() {
        let source = Stored(0, name: "source")
        let row = Computed(name: "row") { Array(repeating: source.value, count: 8) }
        let torn = Counter()
        runOnThreads(3) { thread in
            for iteration in 0..<Self.iterations {
                if thread == 0 {
                    source.value = iteration
                } else {
                    let seen = row.value
                    if seen.first != seen.last || seen.count != 8 { torn.increment() }
                }
            }
        }
        #expect(torn.value == 0)
    }

    @Test("a reaction's read of a stored array keeps its copy alive while other threads write it")
    func trackedReadsOfReplacedArray() {
        let items = Stored([0], name: "items")
        let torn = Counter()
        let reaction = observe {
            let seen = items.value
            if seen.first != seen.last { torn.increment() }
        }
        runOnThreads(3) { thread in
            for iteration in 0..<Self.iterations {
                items.value = Array(repeating: iteration * 3 + thread, count: 8)
            }
        }
        #expect(torn.value == 0)
        _ = reaction
    }

    @Test("a reaction's read of a computed array keeps its copy alive while other threads recompute it")
    func trackedReadsOfRecomputedArray() {
        let source = Stored(0, name: "source")
        let row = Computed(name: "row") { Array(repeating: source.value, count: 8) }
        let ticks = (0..<2).map { Stored(0, name: "tick\($0)") }
        let torn = Counter()
        // One reaction per reader thread, re-run by that thread's writes of its tick: each run
        // reads the row outside any derivation, while the writer's writes make it stale.
        let reactions = ticks.map { tick in
            observe {
                _ = tick.value
                let seen = row.value
                if seen.first != seen.last { torn.increment() }
            }
        }
        runOnThreads(3) { thread in
            for iteration in 1...Self.iterations {
                if thread == 0 {
                    source.value = iteration
                } else {
                    ticks[thread - 1].value = iteration
                }
            }
        }
        #expect(torn.value == 0)
        _ = reactions
    }
}
