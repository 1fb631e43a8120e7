import Testing
@testable import Ripple

/// Direct tests of `_ObserverList`, the live readers of a node, against a naive reference model:
/// an `Array` of the live entries in order, with a dictionary of where each one's slot is.
@Suite struct ObserverListTests {
    /// Nodes to link (the list retains each link's node; the test releases what it removes).
    private static func makeNodes(_ count: Int) -> [Stored<Int>] {
        (0..<count).map { Stored($0) }
    }

    @Test("random appends and removals agree with an Array; slots stay exact across compactions", arguments: 0..<40)
    func randomSequences(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let nodes = Self.makeNodes(64)
        var list = _ObserverList()
        var spares = _SpareObserverBlocks()
        /// The live entries in order: (node index, edge).
        var model: [(node: Int, edge: Int)] = []
        /// Where each live entry is, by edge (edges are unique in this test).
        var slotOf: [Int: Int] = [:]
        var nextEdge = 0
        var removals = 0
        #if RIPPLE_INVARIANTS
        let visitedBefore = list.slotsVisited
        #endif
        for _ in 0..<600 {
            // Biased by the seed towards growing or shrinking, so lists of every size are seen.
            let appendBias = seed % 3 == 0 ? 7 : 5
            if model.isEmpty || Int.random(in: 0..<10, using: &generator) < appendBias {
                let node = Int.random(in: 0..<nodes.count, using: &generator)
                let slot = list.append(_Link(nodes[node], edge: nextEdge), spares: &spares)
                model.append((node, nextEdge))
                slotOf[nextEdge] = slot
                nextEdge += 1
            } else {
                // Remove from the head, the tail, or anywhere (queue, stack and random use).
                let position =
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: 0
                    case 1: model.count - 1
                    default: Int.random(in: 0..<model.count, using: &generator)
                    }
                let entry = model.remove(at: position)
                let slot = slotOf.removeValue(forKey: entry.edge)!
                let removed = list.remove(at: slot, of: nodes[entry.node], spares: &spares) { link, newSlot in
                    slotOf[link.edge] = newSlot
                }
                #expect(removed?.refers(to: nodes[entry.node] as _Node) == true)
                removed?.release()
                removals += 1
            }
            check(list, model: model, slotOf: slotOf, nodes: nodes)
        }
        #if RIPPLE_INVARIANTS
        // Each removal looks at its own slot and, amortized, a bounded number of others.
        #expect(list.slotsVisited - visitedBefore <= 4 * removals)
        #endif
        #expect(spares.count <= _SpareObserverBlocks.maximum)
        // Empty it: the memory is given back, and every reference with it.
        while let entry = model.popLast() {
            let slot = slotOf.removeValue(forKey: entry.edge)!
            list.remove(at: slot, of: nodes[entry.node], spares: &spares) { link, newSlot in slotOf[link.edge] = newSlot
            }?.release()
        }
        let (isEmpty, count, slots) = (list.isEmpty, list.count, list.slots)
        #expect(isEmpty)
        #expect(count == 0)
        #expect(slots.isEmpty)
    }

    private func check(
        _ list: borrowing _ObserverList, model: [(node: Int, edge: Int)], slotOf: [Int: Int], nodes: [Stored<Int>]
    ) {
        #expect(list.count == model.count)
        let isEmpty = list.isEmpty
        #expect(isEmpty == model.isEmpty)
        var live: [Int] = []
        list.forEachSlot { link in
            if !link.isTombstone { live.append(link.edge) }
        }
        #expect(live == model.map(\.edge), "the live links, in order")
        for entry in model {
            let slot = slotOf[entry.edge]!
            #expect(list.slots.contains(slot))
            #expect(list[slot].edge == entry.edge)
            #expect(list[slot].ref.refers(to: nodes[entry.node] as _Node))
        }
        // Tombstones never outnumber live links by more than the compaction threshold.
        #expect(list.slots.upperBound <= model.count + max(_ObserverList.tombstonesBeforeCompaction, model.count))
    }

    @Test("a removal at a slot that does not hold the observer's link is refused, and changes nothing")
    func wrongSlotIsRefused() {
        let nodes = Self.makeNodes(2)
        var list = _ObserverList()
        var spares = _SpareObserverBlocks()
        let first = list.append(_Link(nodes[0], edge: 0), spares: &spares)
        let second = list.append(_Link(nodes[1], edge: 1), spares: &spares)
        #expect(list.remove(at: first, of: nodes[1], spares: &spares) { _, _ in } == nil)
        #expect(list.remove(at: 7, of: nodes[0], spares: &spares) { _, _ in } == nil)
        #expect(list.count == 2)
        list.remove(at: second, of: nodes[1], spares: &spares) { _, _ in }?.release()
        // The freed slot is gone from the list, so removing it again is refused too.
        #expect(list.remove(at: second, of: nodes[1], spares: &spares) { _, _ in } == nil)
        list.remove(at: first, of: nodes[0], spares: &spares) { _, _ in }?.release()
        let isEmpty = list.isEmpty
        #expect(isEmpty)
    }

    @Test("used as a queue (added at the end, removed at the head) the list stays bounded")
    func queueUseIsCompacted() {
        let nodes = Self.makeNodes(1)
        var list = _ObserverList()
        var spares = _SpareObserverBlocks()
        var slots: [Int: Int] = [:]
        var head = 0
        for edge in 0..<5 { slots[edge] = list.append(_Link(nodes[0], edge: edge), spares: &spares) }
        for edge in 5..<2_000 {
            slots[edge] = list.append(_Link(nodes[0], edge: edge), spares: &spares)
            list.remove(at: slots.removeValue(forKey: head)!, of: nodes[0], spares: &spares) { link, newSlot in
                slots[link.edge] = newSlot
            }?.release()
            head += 1
            #expect(list.slots.upperBound <= 6 + _ObserverList.tombstonesBeforeCompaction)
        }
        for edge in head..<2_000 {
            list.remove(at: slots.removeValue(forKey: edge)!, of: nodes[0], spares: &spares) { link, newSlot in
                slots[link.edge] = newSlot
            }?.release()
        }
        let isEmpty = list.isEmpty
        #expect(isEmpty)
    }

    @Test(
        "a list of one link that empties keeps its block for the next first link; longer lists free theirs; spares are bounded"
    )
    func sparesAreReused() {
        let nodes = Self.makeNodes(2)
        var spares = _SpareObserverBlocks()
        // One link each, then emptied: the spares keep `maximum` blocks and free the rest.
        // Non-copyable lists, so in memory of their own rather than an Array.
        let count = _SpareObserverBlocks.maximum + 3
        let lists = UnsafeMutablePointer<_ObserverList>.allocate(capacity: count)
        defer { lists.deallocate() }
        for index in 0..<count { (lists + index).initialize(to: _ObserverList()) }
        let slots = (0..<count).map { lists[$0].append(_Link(nodes[0], edge: $0), spares: &spares) }
        for index in 0..<count {
            lists[index].remove(at: slots[index], of: nodes[0], spares: &spares) { _, _ in }?.release()
        }
        lists.deinitialize(count: count)
        #expect(spares.count == _SpareObserverBlocks.maximum)
        // A first link takes a spare block; the list works as before.
        var list = _ObserverList()
        let first = list.append(_Link(nodes[0], edge: 0), spares: &spares)
        #expect(spares.count == _SpareObserverBlocks.maximum - 1)
        #expect(list.count == 1 && list[first].edge == 0)
        // A second link grows it into a new block; emptied, that block is freed, not kept.
        let second = list.append(_Link(nodes[1], edge: 1), spares: &spares)
        #expect(list.count == 2 && list[second].edge == 1)
        list.remove(at: first, of: nodes[0], spares: &spares) { _, _ in }?.release()
        list.remove(at: second, of: nodes[1], spares: &spares) { _, _ in }?.release()
        let isEmpty = list.isEmpty
        #expect(isEmpty)
        #expect(spares.count == _SpareObserverBlocks.maximum - 1)
    }

    @Test("an empty list holds a parked value until its first link, and none after its last")
    func parkedValue() {
        let nodes = Self.makeNodes(2)
        var list = _ObserverList()
        var spares = _SpareObserverBlocks()
        var parked = list.parked
        #expect(parked == nil)
        for value in [0, 1, -1, 42, Int.max >> 1, Int.min >> 1] {
            list.parked = value
            parked = list.parked
            let (isEmpty, count, slots) = (list.isEmpty, list.count, list.slots)
            #expect(parked == value)
            #expect(isEmpty && count == 0 && slots.isEmpty, "a parked value is not a link")
        }
        let first = list.append(_Link(nodes[0], edge: 0), spares: &spares)
        let second = list.append(_Link(nodes[1], edge: 1), spares: &spares)
        parked = list.parked
        var (isEmpty, count) = (list.isEmpty, list.count)
        #expect(parked == nil, "the first link discards it")
        #expect(!isEmpty && count == 2)
        list.remove(at: first, of: nodes[0], spares: &spares) { _, _ in }?.release()
        list.remove(at: second, of: nodes[1], spares: &spares) { _, _ in }?.release()
        parked = list.parked
        (isEmpty, count) = (list.isEmpty, list.count)
        #expect(parked == nil, "emptied, the list parks nothing")
        #expect(isEmpty && count == 0)
        list.parked = 7
        list.parked = nil
        parked = list.parked
        #expect(parked == nil)
    }

    @Test(
        "a computed value keeps its verified epoch in its empty observer list: one read verifies it, a write makes it stale, a link discards it"
    )
    func verifiedEpochIsParked() {
        let source = Stored(1)
        let doubled = Computed { source.value * 2 }
        let node = doubled.node
        #expect(_graph.withLock { held in held[verifiedEpoch: node] } == -1)
        #expect(doubled.value == 2)
        // (Other tests write meanwhile and move the global epoch: only its presence is checked.)
        #expect(_graph.withLock { held in held[verifiedEpoch: node] >= 0 })
        source.value = 2
        #expect(_graph.withLock { held in !_graph.isFresh(node, held) })
        let reaction = observe { _ = doubled.value }
        // Observed: its list holds a link, and the stale mark says whether it is up to date.
        #expect(
            _graph.withLock { held in
                held[hasObservers: node] && held[verifiedEpoch: node] == -1 && _graph.isFresh(node, held)
            })
        reaction.cancel()
        // Unobserved again while up to date: verified in the epoch it was let go in.
        #expect(_graph.withLock { held in !held[hasObservers: node] && held[verifiedEpoch: node] >= 0 })
        #expect(doubled.value == 4)
    }

    @Test("a node's observer list is one pointer")
    func onePointer() {
        #expect(MemoryLayout<_ObserverList>.size == MemoryLayout<Int>.size + (Self.invariantsWord))
    }

    #if RIPPLE_INVARIANTS
    private static let invariantsWord = MemoryLayout<Int>.size
    #else
    private static let invariantsWord = 0
    #endif
}
