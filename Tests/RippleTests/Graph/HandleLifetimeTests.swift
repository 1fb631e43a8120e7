import Testing
@testable import Ripple

/// A computed value's general read is given the node, not the handle, so that code reading
/// handles out of an array retains none of them (see `_generalRead(of:_:)`): once the inlined
/// getter has the node's reference, optimized code may let go of the handle. The graph keeps
/// the node alive instead, by an edge of the evaluation or a retain of its own
/// (`_Graph.refreshAndTrackUnheld`). These tests read as the inlined getter does, from the
/// node's unretained reference alone, while the derivation being read drops the handle's last
/// reference: without that hold the node is freed under the read, which the release
/// AddressSanitizer run reports.
@Suite("A handle let go of while its value is read")
struct HandleLifetimeTests {
    /// Holds one handle; a derivation may clear it.
    final class Holder: @unchecked Sendable {
        var handle: Computed<Int>?
        var cleared = 0
    }

    /// A computed value whose derivation, once `head` is not zero, drops `holder`'s reference
    /// to it: its handle's last.
    static func dropsItsOwnHandle(_ holder: Holder, _ head: Stored<Int>) {
        holder.handle = Computed(name: "drops its handle") { [unowned holder] in
            let value = head.value
            if value != 0, holder.handle != nil {
                holder.handle = nil
                holder.cleared += 1
            }
            return value * 10
        }
    }

    /// Reads the value of `holder`'s handle as the getter inlined in optimized code does when
    /// the value is not up to date: from the node's unretained reference alone, holding no
    /// reference to the handle across the read.
    static func readWithoutTheHandle(of holder: Holder) -> Int {
        let nodeRef = holder.handle.unsafelyUnwrapped.nodeRef
        let start = nodeRef.with { $0._beginComputedRead() }
        #expect(start == .general, "the value is not up to date: the read goes on along the general path")
        return _generalRead(of: nodeRef, _HeldLock())
    }

    @Test("a top-level read whose derivation drops the handle's last reference")
    func topLevelRead() {
        let head = Stored(0)
        let holder = Holder()
        Self.dropsItsOwnHandle(holder, head)
        #expect(holder.handle?.value == 0)
        head.value = 4
        #expect(Self.readWithoutTheHandle(of: holder) == 40)
        #expect(holder.cleared == 1)
        #expect(holder.handle == nil)
    }

    @Test("a first read inside a derivation (a new edge) whose derivation drops the handle's last reference")
    func readAddingAnEdge() {
        let head = Stored(0)
        let holder = Holder()
        Self.dropsItsOwnHandle(holder, head)
        head.value = 3
        // The outer value's first evaluation reads the handle for the first time: no edge
        // holds its node yet.
        let outer = Computed(name: "outer") { [unowned holder] in
            guard holder.handle != nil else { return 0 }
            return Self.readWithoutTheHandle(of: holder) + 1
        }
        #expect(outer.value == 31)
        #expect(holder.cleared == 1)
        // The handle is gone: once re-evaluated, the outer value reads nothing of it.
        head.value = 5
        #expect(outer.value == 0)
    }

    @Test("a read inside a derivation at the place of its last evaluation, whose derivation drops the handle")
    func readOfAnEdgeInPlace() {
        let head = Stored(0)
        let holder = Holder()
        Self.dropsItsOwnHandle(holder, head)
        // It reads `head` first: a write to it re-evaluates the outer value without bringing
        // the handle's value up to date first, so that happens inside the read.
        let outer = Computed(name: "outer") { [unowned holder] in
            _ = head.value
            guard holder.handle != nil else { return 0 }
            return Self.readWithoutTheHandle(of: holder) + 1
        }
        #expect(outer.value == 1)
        // Re-evaluated: the same source at the same place, whose derivation now drops the
        // handle's last reference; the outer value's edge holds the node.
        head.value = 2
        #expect(outer.value == 21)
        #expect(holder.cleared == 1)
        head.value = 6
        #expect(outer.value == 0, "the handle is gone: the outer value reads nothing any more")
    }

    @Test("a read in a batch's view whose private evaluation drops the handle's last reference")
    func readInTheBatchView() {
        let head = Stored(0)
        let holder = Holder()
        Self.dropsItsOwnHandle(holder, head)
        #expect(holder.handle?.value == 0, "up to date in the shared graph")
        batch {
            head.value = 7
            // Evaluated privately, in the batch's view, although up to date in the graph.
            #expect(Self.readWithoutTheHandle(of: holder) == 70)
        }
        #expect(holder.cleared == 1)
    }

    @Test("handles read out of an array by a derivation and by a reaction, in order, every write")
    func handlesReadOutOfAnArray() {
        let head = Stored(0)
        let branches = (0..<5).map { offset in Computed(name: "branch \(offset)") { head.value + offset } }
        let sum = Computed(name: "sum") {
            var total = 0
            for branch in branches { total += branch.value }
            return total
        }
        let seen = Recorder<Int>()
        let reaction = observe { seen.append(sum.value) }
        for value in 1...20 { head.value = value }
        #expect(seen.all == (0...20).map { $0 * 5 + 10 })
        reaction.cancel()
    }
}
