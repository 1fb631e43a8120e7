import Testing
@testable import Ripple

/// Random graphs whose reactions write, checked against a naive reference model of delivery:
/// a write (or an outermost batch) is applied, then rounds of reactions run, and a write made
/// inside a reaction is queued and applied after the round, each queued write (or batch) in a
/// round of its own.
///
/// The order of the reactions inside one round is Ripple's own (the order they were queued);
/// the model replays the runs in the order they happened and checks everything else: which
/// reactions run in each round (exactly those that read a value that changed since their last
/// run, each once), that every run sees the state of its round (no glitch, nothing of a later
/// queued write), that queued writes are applied in the order they were made, and the final
/// values.
@Suite("Randomized delivery against a reference model")
struct RandomDeliveryTests {
    /// How a reaction writes after it reads, when armed.
    enum WriteKind: CaseIterable {
        /// One write: one queued round.
        case one
        /// Two unbatched writes: two queued rounds, in the order they were made.
        case two
        /// One write in a `batch { }` (a batch's sole write): one queued round.
        case batchOfOne
        /// Two writes in a `batch { }`: one queued round.
        case batchOfTwo
        /// A batch that writes a value and then writes back the value the run read: changes
        /// nothing unless an earlier queued write changed it.
        case writeAndRevert
        /// An `Event` sent, whose handler makes the first write, then the second write: the
        /// send is queued, and its round applies the handler's write; the second write has
        /// the next round.
        case eventThenWrite
    }

    /// A reaction: the nodes it reads, and the stored values it writes (indexes above every
    /// stored value its reads depend on, so that cascades end).
    struct ReactionPlan {
        var reads: [Int]
        var targets: [Int]
        var kind: WriteKind

        /// Whether the run makes its writes inside a `batch { }`.
        var batches: Bool { kind == .batchOfOne || kind == .batchOfTwo || kind == .writeAndRevert }

        /// The writes a run that saw `seen` makes, as the queued items they become; `current`
        /// gives a stored value as the run reads it untracked (the round's state).
        func writes(
            after seen: [Int], reaction: Int, current: (Int) -> Int
        ) -> [[(index: Int, value: Int)]] {
            guard !targets.isEmpty else { return [] }
            let base = seen.reduce(reaction, +)
            let first = (index: targets[0], value: (base + 1) % 5)
            let second = (index: targets[targets.count - 1], value: (base + 3) % 5)
            switch kind {
            case .one, .batchOfOne: return [[first]]
            case .two, .eventThenWrite: return [[first], [second]]
            case .batchOfTwo: return [[first, second]]
            case .writeAndRevert: return [[first, (index: first.index, value: current(first.index))]]
            }
        }
    }

    /// A write an event carries to its handler.
    struct WriteCommand: Sendable {
        var index: Int
        var value: Int
    }

    /// One entry of the run log: which reaction ran and what it read.
    struct Run {
        var reaction: Int
        var seen: [Int]
    }

    /// The stored values each node depends on (through any branch of a `choose`).
    static func dependencies(of model: RandomGraphTests.Model) -> [Set<Int>] {
        var dependencies = (0..<model.stored.count).map { Set([$0]) }
        for shape in model.shapes {
            switch shape {
            case let .sum(inputs, _):
                dependencies.append(inputs.reduce(into: Set<Int>()) { $0.formUnion(dependencies[$1]) })
            case let .choose(selector, even, odd):
                dependencies.append(dependencies[selector].union(dependencies[even]).union(dependencies[odd]))
            }
        }
        return dependencies
    }

    /// Random reactions over `graph`: each reads up to three nodes, and most write stored
    /// values its reads do not depend on.
    static func makePlans(
        for graph: RandomGraphTests.Graph, using generator: inout SeededGenerator
    ) -> [ReactionPlan] {
        let storedCount = graph.stored.count
        let dependencies = Self.dependencies(of: graph.model)
        return (0..<Int.random(in: 2...7, using: &generator)).map { _ in
            // The reaction depends on stored values up to `limit`, and writes above it.
            let limit = Int.random(in: 0..<storedCount, using: &generator)
            let readable = dependencies.indices.filter { dependencies[$0].allSatisfy { $0 <= limit } }
            let reads = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                readable.randomElement(using: &generator)!
            }
            let above = Array((limit + 1)..<storedCount)
            let writes = !above.isEmpty && Int.random(in: 0..<4, using: &generator) != 0
            let targets = writes ? (0..<2).map { _ in above.randomElement(using: &generator)! } : []
            return ReactionPlan(
                reads: reads, targets: targets, kind: WriteKind.allCases.randomElement(using: &generator)!)
        }
    }

    /// Replays the runs of one delivery against the model: applies `change`, then checks the
    /// rounds the runs in `log[cursor...]` make. Returns the failures.
    static func replay(
        _ change: [(index: Int, value: Int)],
        model: inout RandomGraphTests.Model,
        lastSeen: inout [[Int]],
        plans: [ReactionPlan],
        log: [Run],
        cursor: inout Int,
        context: String
    ) -> [String] {
        var failures: [String] = []
        func apply(_ item: [(index: Int, value: Int)]) {
            for write in item { model.stored[write.index] = write.value }
        }
        apply(change)
        var queue: [[(index: Int, value: Int)]] = []
        var round = 0
        while true {
            let values = model.values()
            let due = Set(plans.indices.filter { lastSeen[$0] != plans[$0].reads.map { values[$0] } })
            var ran: Set<Int> = []
            while ran.count < due.count {
                guard cursor < log.count else {
                    failures.append(
                        "\(context) round \(round): reactions \(due.subtracting(ran).sorted()) did not run")
                    return failures
                }
                let run = log[cursor]
                cursor += 1
                let expected = plans[run.reaction].reads.map { values[$0] }
                if !due.contains(run.reaction) {
                    failures.append(
                        "\(context) round \(round): reaction \(run.reaction) ran, but nothing it read changed (due: \(due.sorted()))"
                    )
                } else if ran.contains(run.reaction) {
                    failures.append("\(context) round \(round): reaction \(run.reaction) ran twice")
                }
                if run.seen != expected {
                    failures.append(
                        "\(context) round \(round): reaction \(run.reaction) saw \(run.seen), the round's state is \(expected)"
                    )
                }
                ran.insert(run.reaction)
                lastSeen[run.reaction] = run.seen
                let state = model.stored
                queue += plans[run.reaction].writes(after: run.seen, reaction: run.reaction) { state[$0] }
                if !failures.isEmpty { return failures }
            }
            guard !queue.isEmpty else { break }
            apply(queue.removeFirst())
            round += 1
        }
        return failures
    }

    @Test(
        "random graphs whose reactions write: rounds, order and values agree with the reference model",
        arguments: Array(1...12) as [UInt64])
    func writingReactions(seed: UInt64) {
        var generator = SeededGenerator(seed: seed &+ 5_000)
        let graph = RandomGraphTests.makeGraph(using: &generator)
        var model = graph.model
        let stored = graph.stored
        let all = graph.readables
        let plans = Self.makePlans(for: graph, using: &generator)

        let log = Cell<[Run]>([])
        let armed = Cell(false)
        // The event reactions send: its handler makes the write it carries.
        let event = Event<WriteCommand>()
        var subscriptions: [Subscription] = [event.subscribe { stored[$0.index].value = $0.value }]
        for (index, plan) in plans.enumerated() {
            subscriptions.append(
                observe {
                    let seen = plan.reads.map { all[$0].value }
                    log.value.append(Run(reaction: index, seen: seen))
                    guard armed.value else { return }
                    let items = plan.writes(after: seen, reaction: index) { target in
                        untracked { stored[target].value }
                    }
                    if plan.kind == .eventThenWrite, let first = items.first?.first, let second = items.last?.first {
                        event.send(WriteCommand(index: first.index, value: first.value))
                        stored[second.index].value = second.value
                        return
                    }
                    for item in items {
                        if plan.batches {
                            batch { for write in item { stored[write.index].value = write.value } }
                        } else {
                            for write in item { stored[write.index].value = write.value }
                        }
                    }
                })
        }
        // The first runs, at creation, write nothing.
        let initial = model.values()
        var lastSeen = plans.map { $0.reads.map { initial[$0] } }
        #expect(log.value.map(\.reaction) == Array(plans.indices), "seed \(seed): the first runs")
        #expect(log.value.map(\.seen) == lastSeen, "seed \(seed): the first runs' values")
        var cursor = log.value.count
        armed.value = true

        var failures: [String] = []
        for step in 0..<80 where failures.isEmpty {
            let count = Int.random(in: 1...3, using: &generator)
            let change = (0..<count).map { _ in
                (
                    index: Int.random(in: 0..<stored.count, using: &generator),
                    value: Int.random(in: 0..<5, using: &generator)
                )
            }
            if Bool.random(using: &generator) {
                batch { for write in change { stored[write.index].value = write.value } }
                failures += Self.replay(
                    change, model: &model, lastSeen: &lastSeen, plans: plans, log: log.value, cursor: &cursor,
                    context: "seed \(seed) step \(step) (batch)")
            } else {
                for (position, write) in change.enumerated() where failures.isEmpty {
                    stored[write.index].value = write.value
                    failures += Self.replay(
                        [write], model: &model, lastSeen: &lastSeen, plans: plans, log: log.value, cursor: &cursor,
                        context: "seed \(seed) step \(step) write \(position)")
                }
            }
            if failures.isEmpty, cursor != log.value.count {
                failures.append(
                    "seed \(seed) step \(step): \(log.value.count - cursor) runs more than the model's: \(log.value[cursor...].map(\.reaction))"
                )
            }
            let values = model.values()
            for (index, node) in all.enumerated() where failures.isEmpty && node.value != values[index] {
                failures.append("seed \(seed) step \(step): node \(index) is \(node.value), model \(values[index])")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        subscriptions.removeAll()
    }

    @Test(
        "two threads writing one random graph: every run sees one state of the writes, and the last one sees the final state",
        arguments: Array(1...6) as [UInt64])
    func writersOnTwoThreads(seed: UInt64) {
        var generator = SeededGenerator(seed: seed &+ 9_000)
        let graph = RandomGraphTests.makeGraph(using: &generator)
        let stored = graph.stored
        let all = graph.readables
        let writers = 2
        let changesPerWriter = 150

        // Writer w owns the stored values whose index is w modulo the writer count: its changes
        // and the values of its stored values after each. Each change gives every value the
        // writer owns a new one (a batch, or a single write when it owns one): a run holds the
        // changes that touch what it read, and reads as it is a later change that touches
        // nothing it read (Internals.md, "A reaction's run and other threads' changes"), so with
        // every change touching all of a writer's values, a run sees each writer at one state.
        var changes: [[[(index: Int, value: Int)]]] = []
        var owned: [[[Int]]] = []
        for writer in 0..<writers {
            let mine = stored.indices.filter { $0 % writers == writer }
            var values = mine.map { graph.model.stored[$0] }
            var list: [[(index: Int, value: Int)]] = []
            var states = [values]
            for _ in 0..<changesPerWriter {
                let change = mine.indices.shuffled(using: &generator).map { slot in
                    (index: slot, value: (values[slot] + Int.random(in: 1..<1_000, using: &generator)) % 1_000)
                }
                for write in change { values[write.index] = write.value }
                list.append(change.map { (index: mine[$0.index], value: $0.value) })
                states.append(values)
            }
            changes.append(list)
            owned.append(states)
        }
        // Every state the graph can be in: one state of each writer's values.
        var model = graph.model
        var states: [[Int]] = []
        for first in 0...changesPerWriter {
            for second in 0...changesPerWriter {
                for (writer, k) in [(0, first), (1, second)] {
                    for (slot, index) in stored.indices.filter({ $0 % writers == writer }).enumerated() {
                        model.stored[index] = owned[writer][k][slot]
                    }
                }
                states.append(model.values())
            }
        }
        let finalValues = states[states.count - 1]

        let readCounts = (0..<Int.random(in: 2...5, using: &generator)).map { _ in
            Int.random(in: 1...3, using: &generator)
        }
        let reads = readCounts.map { count in (0..<count).map { _ in Int.random(in: 0..<all.count, using: &generator) }
        }
        let possible = reads.map { nodes in Set(states.map { state in nodes.map { state[$0] } }) }
        let log = Recorder<Run>()
        let subscriptions = reads.enumerated().map { reaction, nodes in
            observe { log.append(Run(reaction: reaction, seen: nodes.map { all[$0].value })) }
        }

        let finalChanges = changes
        runOnThreads(writers) { writer in
            for (k, change) in finalChanges[writer].enumerated() {
                // Single writes alternate between unbatched and a batch's sole write.
                if change.count == 1, k % 2 == 0 {
                    stored[change[0].index].value = change[0].value
                } else {
                    batch { for write in change { stored[write.index].value = write.value } }
                }
            }
        }

        var failures: [String] = []
        var last = Array(repeating: [Int](), count: reads.count)
        for run in log.all {
            if !possible[run.reaction].contains(run.seen) {
                failures.append(
                    "reaction \(run.reaction) saw \(run.seen) of nodes \(reads[run.reaction]): no state of the writes")
            }
            last[run.reaction] = run.seen
        }
        for (reaction, nodes) in reads.enumerated() where last[reaction] != nodes.map({ finalValues[$0] }) {
            failures.append(
                "reaction \(reaction) last saw \(last[reaction]), the final state is \(nodes.map { finalValues[$0] })")
        }
        for (index, node) in all.enumerated() where node.value != finalValues[index] {
            failures.append("node \(index) is \(node.value), the final state \(finalValues[index])")
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.count) failures, first: \(failures.prefix(3))")
        for subscription in subscriptions { subscription.cancel() }
    }
}
