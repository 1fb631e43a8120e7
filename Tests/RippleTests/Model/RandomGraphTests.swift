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

    /// A random graph: the reference model and the Ripple nodes that mirror it.
    struct Graph {
        var model: Model
        let stored: [Stored<Int>]
        /// The stored nodes, then the computed ones, in the model's order.
        let readables: [any Readable<Int> & Sendable]
        /// Each computed node's evaluations.
        let evaluations: [Counter]
    }

    /// Builds a random graph of 2 to 6 stored and 4 to 30 computed values.
    static func makeGraph(using generator: inout SeededGenerator) -> Graph {
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
                let inputs = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    Int.random(in: 0..<available, using: &generator)
                }
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
                node = Computed {
                    counter.increment(); return (inputs.reduce(constant) { $0 + nodes[$1].value }) % 7
                }
            case let .choose(selector, even, odd):
                node = Computed {
                    counter.increment(); return nodes[selector].value % 2 == 0 ? nodes[even].value : nodes[odd].value
                }
            }
            readables.append(node)
        }
        return Graph(model: model, stored: stored, readables: readables, evaluations: evaluations)
    }

    @Test(
        "random graphs, writes and batches agree with the reference model",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomGraphs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let graph = Self.makeGraph(using: &generator)
        var model = graph.model
        let stored = graph.stored
        let storedCount = stored.count
        let readables = graph.readables
        let evaluations = graph.evaluations

        // Reactions, each reading a few random nodes; they record what they saw.
        let all = readables
        let reactionCount = Int.random(in: 1...5, using: &generator)
        var reactionReads: [[Int]] = []
        let seen = (0..<reactionCount).map { _ in Recorder<[Int]>() }
        var subscriptions: [Subscription] = []
        for reaction in 0..<reactionCount {
            let reads = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                Int.random(in: 0..<all.count, using: &generator)
            }
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
                plan.append(
                    (Int.random(in: 0..<storedCount, using: &generator), Int.random(in: 0..<5, using: &generator)))
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
                #expect(
                    seen[reaction].count == expectedRuns[reaction],
                    "seed \(seed) step \(step) reaction \(reaction) run count")
                #expect(
                    seen[reaction].all.last == reactionReads[reaction].map { newValues[$0] },
                    "seed \(seed) step \(step) reaction \(reaction) saw a glitch")
            }
            // Every computed value agrees with the model and evaluated at most once.
            for (index, node) in all.enumerated() {
                #expect(node.value == newValues[index], "seed \(seed) step \(step) node \(index)")
            }
            for (index, counter) in evaluations.enumerated() {
                #expect(
                    counter.value <= 1, "seed \(seed) step \(step) computed \(index) evaluated \(counter.value) times")
            }
            values = newValues
            lastSeenValues = newValues
        }
        _ = values
        subscriptions.removeAll()
    }

    /// The earliest snapshot, at or after `earliest`, in which the nodes `indexes` have
    /// `values`, if any.
    static func snapshot(matching values: [Int], of indexes: [Int], from earliest: Int, in snapshots: [[Int]]) -> Int? {
        (earliest..<snapshots.count).first { k in zip(indexes, values).allSatisfy { snapshots[k][$0] == $1 } }
    }

    @Test(
        "multi-threaded: batches applied on one thread are atomic for readers on others",
        arguments: [1, 2, 3, 4] as [UInt64])
    func randomGraphsAcrossThreads(seed: UInt64) {
        var generator = SeededGenerator(seed: seed &+ 1_000)
        let graph = Self.makeGraph(using: &generator)
        let stored = graph.stored
        let all = graph.readables
        let storedCount = stored.count

        // The writer's batches, the model after each write inside each batch, and the model
        // after each batch (snapshot 0 is the initial state, snapshot k the state after batch k).
        let batchCount = 120
        var model = graph.model
        var plans: [[(index: Int, value: Int)]] = []
        var partials: [[[Int]]] = []
        var snapshots = [model.values()]
        for _ in 0..<batchCount {
            let plan = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (
                    index: Int.random(in: 0..<storedCount, using: &generator),
                    value: Int.random(in: 0..<5, using: &generator)
                )
            }
            var partial: [[Int]] = []
            for write in plan {
                model.stored[write.index] = write.value
                partial.append(model.values())
            }
            plans.append(plan)
            partials.append(partial)
            snapshots.append(model.values())
        }

        // Each reader reads groups of nodes through one derivation (one consistent state), and
        // single nodes; inside batches of its own, it reads a derivation that mixes its own
        // staged value with the graph's.
        let readerCount = 2
        let groups: [[[Int]]] = (0..<readerCount).map { _ in
            (0..<3).map { _ in
                (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                    Int.random(in: 0..<all.count, using: &generator)
                }
            }
        }
        let groupNodes = groups.map { reader in reader.map { indexes in Computed { indexes.map { all[$0].value } } } }
        let own = (0..<readerCount).map { _ in Stored(0) }
        let mixedIndex = (0..<readerCount).map { _ in Int.random(in: 0..<all.count, using: &generator) }
        let mixed = (0..<readerCount).map { reader in
            Computed { own[reader].value * 100 + all[mixedIndex[reader]].value }
        }

        // A reaction on the writer's thread: after batch k it has seen snapshot k.
        let watchedGroup = groups[0][0]
        let watched = Recorder<[Int]>()
        let reaction = observe { watched.append(watchedGroup.map { all[$0].value }) }

        let failures = Recorder<String>()
        let progress = ThreadProgress()
        let finalPlans = plans
        let finalPartials = partials
        let finalSnapshots = snapshots
        runOnThreads(1 + readerCount) { thread in
            if thread == 0 {
                var random = SeededGenerator(seed: seed &* 7_919)
                for (k, plan) in finalPlans.enumerated() {
                    batch {
                        for (step, write) in plan.enumerated() {
                            stored[write.index].value = write.value
                            // The batch reads its own writes, computed values included.
                            let probe = Int(random.next() % UInt64(all.count))
                            let seen = all[probe].value
                            let expected = finalPartials[k][step][probe]
                            if seen != expected {
                                failures.append(
                                    "batch \(k) write \(step): node \(probe) read \(seen) inside the batch, model \(expected)"
                                )
                            }
                            if k % 4 == 0, step == 0 {
                                // Half-way through: let the readers make a pass while it is open.
                                let now = progress.value
                                progress.wait(beyond: now + readerCount)
                            }
                        }
                    }
                    let expected = watchedGroup.map { finalSnapshots[k + 1][$0] }
                    if watched.all.last != expected {
                        failures.append(
                            "after batch \(k + 1) the reaction saw \(watched.all.last ?? []), model \(expected)")
                    }
                }
                progress.finish()
                return
            }
            let reader = thread - 1
            var random = SeededGenerator(seed: seed &* 31 &+ UInt64(thread))
            // The earliest snapshot consistent with everything this reader saw so far: reads
            // never go back in time, and each is explained by one snapshot.
            var earliest = 0
            var reads = 0
            while reads < 300 || !progress.isDone {
                reads += 1
                let group = Int(random.next() % 3)
                let values = groupNodes[reader][group].value
                if let k = Self.snapshot(
                    matching: values, of: groups[reader][group], from: earliest, in: finalSnapshots)
                {
                    earliest = k
                } else {
                    failures.append(
                        "reader \(reader) read \(values) for nodes \(groups[reader][group]): no snapshot from \(earliest) on matches"
                    )
                }
                let node = Int(random.next() % UInt64(all.count))
                let value = all[node].value
                if let k = Self.snapshot(matching: [value], of: [node], from: earliest, in: finalSnapshots) {
                    earliest = k
                } else {
                    failures.append(
                        "reader \(reader) read \(value) for node \(node): no snapshot from \(earliest) on matches")
                }
                if reads % 8 == 0 {
                    batch {
                        own[reader].value = reads
                        let seen = mixed[reader].value
                        if seen / 100 != reads {
                            failures.append("reader \(reader) did not read its own write (\(seen))")
                        }
                        if let k = Self.snapshot(
                            matching: [seen % 100], of: [mixedIndex[reader]], from: earliest, in: finalSnapshots)
                        {
                            earliest = k
                        } else {
                            failures.append(
                                "reader \(reader) read \(seen % 100) for node \(mixedIndex[reader]) inside its batch: no snapshot from \(earliest) on matches"
                            )
                        }
                    }
                }
                progress.advance()
            }
        }
        #expect(failures.count == 0, "seed \(seed): inconsistent reads, first: \(failures.all.prefix(3))")
        for (index, node) in all.enumerated() {
            #expect(node.value == finalSnapshots[batchCount][index], "seed \(seed) node \(index) at the end")
        }
        reaction.cancel()
    }
}
