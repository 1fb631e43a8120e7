import Testing
@testable import Ripple

/// A computed value's evaluation state lives on the graph, saved by each evaluation it
/// interrupts (`_Graph.beginEvaluation`), and the sources an evaluation replaces in one buffer
/// shared by the evaluations in progress. A reaction run's state is its thread's, saved by a
/// run nested in it, and the sources a run replaces are in a table on the graph. Nested evaluations that switch sources while live
/// must leave every link exact (the invariant checks of debug builds look at each edge when an
/// evaluation ends) and drop exactly what they no longer read.
@Suite struct EvaluationStateTests {
    @Test("nested evaluations that both switch sources while live keep every link exact")
    func nestedSwitches() {
        let flip = Stored(0)
        let leaves = (0..<8).map { Stored($0) }
        // Switches between the first four leaves and the last four, in different orders.
        let inner = Computed { () -> Int in
            flip.value % 2 == 0
                ? leaves[0].value + leaves[1].value * 2 + leaves[2].value * 3 + leaves[3].value * 4
                : leaves[7].value + leaves[6].value * 2 + leaves[5].value * 3 + leaves[4].value * 4
        }
        // Switches its own sources around the nested evaluation of `inner`.
        let outer = Computed { () -> Int in
            flip.value % 2 == 0 ? leaves[4].value * 100 + inner.value : inner.value + leaves[3].value * 1000
        }
        // Other live readers of the leaves, so that the leaves' observer lists fill with links
        // the switches leave behind, and compact.
        let others = leaves.map { leaf in observe { _ = leaf.value } }
        nonisolated(unsafe) var seen: [Int] = []
        let reaction = observe { seen.append(outer.value) }
        func expected(_ flip: Int, _ leaf: [Int]) -> Int {
            flip % 2 == 0
                ? leaf[4] * 100 + leaf[0] + leaf[1] * 2 + leaf[2] * 3 + leaf[3] * 4
                : leaf[7] + leaf[6] * 2 + leaf[5] * 3 + leaf[4] * 4 + leaf[3] * 1000
        }
        var model = Array(0..<8)
        for step in 1...40 {
            flip.value = step
            if step % 3 == 0 {
                model[step % 8] += step
                leaves[step % 8].value = model[step % 8]
            }
            #expect(seen.last == expected(step, model), "step \(step)")
            #expect(outer.value == expected(step, model))
            // One link per live reader of each leaf: the reactions in `others`, `inner` for the
            // four it reads now, `outer` for the one it reads now.
            for (index, leaf) in leaves.enumerated() {
                let readByInner = step % 2 == 0 ? index < 4 : index >= 4
                let readByOuter = index == (step % 2 == 0 ? 4 : 3)
                let links = leaf.observerCountForTesting
                #expect(links == 1 + (readByInner ? 1 : 0) + (readByOuter ? 1 : 0), "leaf \(index) at step \(step)")
            }
        }
        #expect(_graph.withLock { held in _graph.state(held).replacedByEvaluations.count } == 0)
        withExtendedLifetime((others, reaction)) {}
    }

    @Test("an evaluation inside another resumes the outer one's tracking where it stopped")
    func resumesInterruptedTracking() {
        let a = Stored(1)
        let b = Stored(2)
        let c = Stored(3)
        let innerEvaluations = Counter()
        let inner = Computed { () -> Int in
            innerEvaluations.increment()
            return b.value * 10
        }
        // Reads a, then (evaluating inner in the middle) b through inner, then c, then a again:
        // the repeated read of a must be recognised as the outer evaluation's, not recorded twice.
        let outer = Computed { () -> Int in
            let first: Int = a.value + inner.value
            return first + c.value + a.value
        }
        let reaction = observe { _ = outer.value }
        #expect(outer.value == 25)
        let outerNode = outer.node
        #expect(outerNode.sourceCountForTesting == 3)  // a, inner, c
        b.value = 5
        #expect(outer.value == 55)
        c.value = 4
        #expect(outer.value == 56)
        #expect(innerEvaluations.value == 2)
        #expect(outerNode.sourceCountForTesting == 3)
        withExtendedLifetime(reaction) {}
    }

    @Test("a compaction during an evaluation moves the link of a source that evaluation replaced")
    func compactionMovesReplacedLink() {
        let flip = Stored(false)
        let old = Stored(1)
        let newForOuter = Stored(10)
        let newForInner = Stored(100)
        // As many readers of `old` as a list keeps tombstones before compacting, linked first
        // and cancelled below: their slots become tombstones before the links that follow.
        let early = (0..<_ObserverList.tombstonesBeforeCompaction).map { _ in observe { _ = old.value } }
        let inner = Computed { flip.value ? newForInner.value : old.value }
        // Replaces `old` (its link is relabelled as a replaced source), then evaluates `inner`,
        // which drops `old`: that removal compacts `old`'s links and moves the outer one.
        let outer = Computed { flip.value ? newForOuter.value + inner.value : old.value + inner.value }
        nonisolated(unsafe) var seen: [Int] = []
        let reaction = observe { seen.append(outer.value) }  // links outer, then inner, to `old`
        let late = observe { _ = old.value }  // keeps inner's link from being the last
        for subscription in early { subscription.cancel() }
        #expect(old.observerCountForTesting == 3)
        flip.value = true
        #expect(seen == [2, 110])
        // The outer evaluation's end unlinked `old` at the slot the compaction moved it to.
        #expect(old.observerCountForTesting == 1)
        flip.value = false
        #expect(seen == [2, 110, 2])
        #expect(old.observerCountForTesting == 3)
        withExtendedLifetime((reaction, late)) {}
    }

    @Test("a reaction created inside another's body leaves the outer run's tracking as it was")
    func nestedRunResumesTracking() {
        let a = Stored(1)
        let b = Stored(2)
        let c = Stored(3)
        let outerRuns = Counter()
        let innerRuns = Counter()
        nonisolated(unsafe) var child: Subscription?
        let outer = observe {
            outerRuns.increment()
            _ = a.value
            // The child's first run is nested in this one, on this thread.
            child = observe {
                innerRuns.increment()
                _ = b.value
            }
            _ = c.value
            _ = a.value  // read again: the same source, not a new one
        }
        let node = outer._reactionNode!
        #expect(unsafeDowncast(node, to: _SubscriberNode.self).sourceCountForTesting == 2)  // a, c
        c.value = 4
        #expect(outerRuns.value == 2)
        b.value = 5
        #expect(outerRuns.value == 2)
        #expect(innerRuns.value == 3)  // its first run in each outer run, then b's change
        a.value = 6
        #expect(outerRuns.value == 3)
        withExtendedLifetime((outer, child)) {}
    }

    @Test("a compaction during a reaction's run moves the link of a source that run replaced")
    func compactionMovesRunReplacedLink() throws {
        let flip = Stored(false)
        let old = Stored(1)
        let newForReaction = Stored(10)
        let newForInner = Stored(100)
        let early = (0..<_ObserverList.tombstonesBeforeCompaction).map { _ in observe { _ = old.value } }
        let inner = Computed { flip.value ? newForInner.value : old.value }
        nonisolated(unsafe) var seen: [Int] = []
        // Replaces `old` (in the graph's table of replaced sources), then evaluates `inner`,
        // which drops `old`: that removal compacts `old`'s links and moves the reaction's.
        let reaction = observe {
            seen.append(flip.value ? newForReaction.value + inner.value : old.value + inner.value)
        }
        let late = observe { _ = old.value }
        for subscription in early { subscription.cancel() }
        #expect(old.observerCountForTesting == 3)
        flip.value = true
        #expect(seen == [2, 110])
        #expect(old.observerCountForTesting == 1)
        // This reaction's entry (the table is the process's: other tests' runs, in progress on
        // other threads, may have entries of their own).
        let node = try #require(reaction._reactionNode)
        #expect(_graph.withLock { held in _graph.state(held).replacedByRuns[ObjectIdentifier(node)] == nil })
        flip.value = false
        #expect(seen == [2, 110, 2])
        #expect(old.observerCountForTesting == 3)
        withExtendedLifetime((reaction, late)) {}
    }
}
