import Testing
@testable import Ripple

/// Random graphs, static and dynamic, checked against a naive reference model that
/// recomputes everything from scratch after every step.
@Suite("Randomized graphs against a reference model")
struct RandomGraphTests {
    /// How a computed node combines its inputs.
    enum Shape {
        /// Sum of the inputs plus a constant, modulo 7 (so equal results are common).
        case sum([Int], Int)
        /// Reads `inputs[0]`; if it is even reads `inputs[1]`, else `inputs[2]` (dynamic dependencies).
        case choose(Int, Int, Int)
    }

    /// The reference model: plain arrays, recomputed naively.
    struct Model {
        var stored: [Int]
        var shapes: [Shape]

        func values() -> [Int] {
            var values = stored
            for shape in shapes {
                switch shape {
                case let .sum(inputs, constant):
                    values.append((inputs.reduce(constant) { $0 + values[$1] }) % 7)
                case let .choose(selector, even, odd):
                    values.append(values[selector] % 2 == 0 ? values[even] : values[odd])
                }
            }
            return values
        }

    }

    @Test("random graphs, writes and batches agree with the reference model", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomGraphs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let storedCount = Int.random(in: 2...6, using: &generator)
        let computedCount = Int.random(in: 4...30, using: &generator)
        var model = Model(stored: (0..<storedCount).map { _ in Int.random(in: 0..<5, using: &generator) }, shapes: [])
        let stored = model.stored.map { Stored($0) }
        var readables: [any Readable<Int> & Sendable] = stored
        let evaluations = (0..<computedCount).map { _ in Counter() }
        for index in 0..<computedCount {
            let available = storedCount + index
            let shape: Shape
            if Bool.random(using: &generator) {
                let inputs = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Int.random(in: 0..<available, using: &generator) }
                shape = .sum(inputs, Int.random(in: 0..<3, using: &generator))
            } else {
                shape = .choose(
                    Int.random(in: 0..<available, using: &generator),
                    Int.random(in: 0..<available, using: &generator),
                    Int.random(in: 0..<available, using: &generator))
            }
            model.shapes.append(shape)
            let nodes = readables
            let counter = evaluations[index]
            let node: Computed<Int>
            switch shape {
            case let .sum(inputs, constant):
                node = Computed { counter.increment(); return (inputs.reduce(constant) { $0 + nodes[$1].value }) % 7 }
            case let .choose(selector, even, odd):
                node = Computed { counter.increment(); return nodes[selector].value % 2 == 0 ? nodes[even].value : nodes[odd].value }
            }
            readables.append(node)
        }

        // Reactions, each reading a few random nodes; they record what they saw.
        let all = readables
        let reactionCount = Int.random(in: 1...5, using: &generator)
        var reactionReads: [[Int]] = []
        let seen = (0..<reactionCount).map { _ in Recorder<[Int]>() }
        var subscriptions: [Subscription] = []
        for reaction in 0..<reactionCount {
            let reads = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Int.random(in: 0..<all.count, using: &generator) }
            reactionReads.append(reads)
            let log = seen[reaction]
            subscriptions.append(observe { log.append(reads.map { all[$0].value }) })
        }

        var expectedRuns = Array(repeating: 1, count: reactionCount)
        var values = model.values()
        var lastSeenValues = values
        for step in 0..<60 {
            for counter in evaluations { counter.reset() }
            let writes = Int.random(in: 1...3, using: &generator)
            let useBatch = writes > 1 || Bool.random(using: &generator)
            var plan: [(Int, Int)] = []
            for _ in 0..<writes {
                plan.append((Int.random(in: 0..<storedCount, using: &generator), Int.random(in: 0..<5, using: &generator)))
            }
            if useBatch {
                batch { for (index, value) in plan { stored[index].value = value } }
            } else {
                for (index, value) in plan { stored[index].value = value }
            }
            for (index, value) in plan { model.stored[index] = value }
            let newValues = model.values()

            // Reactions: run iff a value they read changed (computed values cut off by equality).
            for reaction in 0..<reactionCount {
                let changed = reactionReads[reaction].contains { lastSeenValues[$0] != newValues[$0] }
                if changed { expectedRuns[reaction] += 1 }
                #expect(seen[reaction].count == expectedRuns[reaction], "seed \(seed) step \(step) reaction \(reaction) run count")
                #expect(seen[reaction].all.last == reactionReads[reaction].map { newValues[$0] }, "seed \(seed) step \(step) reaction \(reaction) saw a glitch")
            }
            // Every computed value agrees with the model and evaluated at most once.
            for (index, node) in all.enumerated() {
                #expect(node.value == newValues[index], "seed \(seed) step \(step) node \(index)")
            }
            for (index, counter) in evaluations.enumerated() {
                #expect(counter.value <= 1, "seed \(seed) step \(step) computed \(index) evaluated \(counter.value) times")
            }
            values = newValues
            lastSeenValues = newValues
        }
        _ = values
        subscriptions.removeAll()
    }
}
