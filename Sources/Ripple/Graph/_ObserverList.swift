import _RippleRef

/// The live nodes that read one node (its observers): one `_Link` per edge, in the order they
/// were added, each at a *slot* that its observer's edge remembers, so that removing any of
/// them is O(1).
///
/// One pointer in the node: `nil` while nothing observes it (most nodes), else one allocation
/// holding the counts and then the links. Removing a link leaves a tombstone (the order of the
/// others is kept and their slots stay valid); tombstones at either end are trimmed at once, and
/// the list is compacted when they outnumber the live links, reporting each link that moved so
/// that its edge's slot can follow. Emptying the list frees its memory, or, for a list of one
/// link, gives it to the graph's spare blocks (`_SpareObserverBlocks`), from which the next list
/// to get its first observer takes it: a computed value that an evaluation reads every other
/// time (the "unstable" benchmark graph) is linked and unlinked without a call to the allocator.
///
/// It is not copyable and has one owner (the node), like `_Buffer`; every use is under the
/// graph's lock. The links' references are counted by hand: `remove(at:of:moving:)` hands the
/// removed reference back to the caller, who releases it once the lock is released.
struct _ObserverList: ~Copyable {
    /// The counts, at the start of the allocation.
    private struct Header {
        /// Slots in use, tombstones included (the links are `0..<end`).
        var end: Int32
        var capacity: Int32
        /// Live links.
        var live: Int32
        /// The first slot that is not a tombstone.
        var head: Int32
        /// Tombstones in `0..<end`, those before `head` included (so that a list used as a
        /// queue, added to at the end and removed from at the head, is compacted too).
        var holes: Int32
    }

    /// Where the links start in the allocation (the header, rounded up to a link's alignment).
    private static var linksOffset: Int {
        @inline(__always) get {
            let alignment = MemoryLayout<_Link>.alignment
            return (MemoryLayout<Header>.size + alignment - 1) / alignment * alignment
        }
    }

    /// The links remove and compact may keep as tombstones before compacting (and at least as
    /// many as live links).
    static let tombstonesBeforeCompaction = 16

    /// The allocation's address; or, while the list is empty, 0 or a value parked in its place
    /// (see `parked`): its bits shifted left, with the low bit set (an allocation's address is
    /// aligned, so its low bit is clear).
    private var bits: UInt = 0

    /// The allocation, `nil` while the list is empty.
    @inline(__always)
    private var storage: UnsafeMutableRawPointer? {
        get { bits & 1 == 0 ? UnsafeMutableRawPointer(bitPattern: bits) : nil }
        set { bits = UInt(bitPattern: newValue) }
    }

    #if RIPPLE_INVARIANTS
    /// Debug builds: the slots that removals and compactions looked at since the list was
    /// created, so that tests can check that removing stays amortized O(1) without timing it.
    private(set) var slotsVisited = 0
    #endif

    init() {}

    deinit {
        storage?.deallocate()
    }

    /// The allocation of a list that is not empty: straight from `bits`, one step fewer than
    /// `storage` (which counts in debug builds, where nothing is inlined).
    @inline(__always)
    private var allocation: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: bits).unsafelyUnwrapped
    }

    @inline(__always)
    private var header: UnsafeMutablePointer<Header> {
        allocation.assumingMemoryBound(to: Header.self)
    }

    @inline(__always)
    private var links: UnsafeMutablePointer<_Link> {
        (allocation + Self.linksOffset).assumingMemoryBound(to: _Link.self)
    }

    /// Whether nothing observes the node.
    @inline(__always)
    var isEmpty: Bool { bits & 1 != 0 || bits == 0 }

    /// A value kept in the list's word while the list is empty, `nil` if none: an unobserved
    /// computed value keeps its verified epoch here (`_Node.verifiedEpoch`), as it
    /// needs one only while nothing observes it. Set it only while the list is empty; the first
    /// link added discards it. (The value loses its top bit.)
    @inline(__always)
    var parked: Int? {
        get { bits & 1 != 0 ? Int(bitPattern: bits) >> 1 : nil }
        set {
            #if RIPPLE_INVARIANTS
            precondition(isEmpty, "Ripple internal error: a value parked in an observer list that is not empty")
            #endif
            bits = newValue.map { UInt(bitPattern: $0 << 1) | 1 } ?? 0
        }
    }

    /// The number of live links.
    @inline(__always)
    var count: Int { isEmpty ? 0 : Int(header.pointee.live) }

    /// The slots that may hold a live link (some may be tombstones): empty when the list is.
    @inline(__always)
    var slots: Range<Int> {
        guard !isEmpty else { return 0..<0 }
        return Int(header.pointee.head)..<Int(header.pointee.end)
    }

    /// The link at `slot`, which must be in ``slots`` (it may be a tombstone).
    @inline(__always)
    subscript(slot: Int) -> _Link {
        get {
            checkSlot(slot)
            return links[slot]
        }
    }

    /// Changes where the observer of the link at `slot` keeps its edge (see `_Link.edge`).
    @inline(__always)
    mutating func setEdge(_ edge: Int, at slot: Int) {
        checkSlot(slot)
        links[slot].edge = edge
    }

    /// Calls `body` with each slot's link in order, from the first slot, tombstones included (a tombstone's node is
    /// a stored value nobody reads, so code that only marks observers may pass it by).
    /// `body` must not change this list.
    @inline(__always)
    func forEachSlot(_ body: (_Link) -> Void) {
        let links = slotsInUse
        var slot = 0
        while slot < links.count {
            body(links[slot])
            slot &+= 1
        }
    }

    /// The slots in use, tombstones included, for a walk that does not change this list (see
    /// `forEachSlot`): read in place, valid until the list changes.
    @inline(__always)
    var slotsInUse: _ElementsInPlace<_Link> {
        guard !isEmpty else { return _ElementsInPlace(base: nil, count: 0) }
        let storage = allocation
        // From the first slot, not `head`: the tombstones before it are passed like the others,
        // and the loop needs one count from the header (no range is built).
        let links = (storage + Self.linksOffset).assumingMemoryBound(to: _Link.self)
        return _ElementsInPlace(
            base: UnsafePointer(links), count: Int(storage.assumingMemoryBound(to: Header.self).pointee.end))
    }

    /// Adds `link` at the end; returns its slot. A first link goes into a block from `spares`
    /// if it has one.
    ///
    /// - Complexity: Amortized O(1).
    @inline(__always)
    mutating func append(_ link: _Link, spares: inout _SpareObserverBlocks) -> Int {
        if isEmpty {
            if let block = spares.take() {
                block.bindMemory(to: Header.self, capacity: 1).initialize(
                    to: Header(end: 0, capacity: 1, live: 0, head: 0, holes: 0))
                storage = block
            } else {
                grow()
            }
        } else if header.pointee.end == header.pointee.capacity {
            grow()
        }
        // Through a local pointer: writing `self.header.pointee` in place crashes the compiler
        // when ThreadSanitizer instruments it (Swift 6.3.1, "Invalid bitcast" in IRGen).
        let header = self.header
        let slot = Int(header.pointee.end)
        (links + slot).initialize(to: link)
        header.pointee.end &+= 1
        header.pointee.live &+= 1
        return slot
    }

    /// Removes the link at `slot` if it links `observer`, keeping the order of the others;
    /// returns its reference (still counted: the caller releases it), or `nil` if `slot` does not
    /// hold a link to `observer` (an internal error the caller reports).
    ///
    /// A compaction this removal causes moves links to other slots: `moving` is called with each
    /// moved link and its new slot, so that the observer's edge can follow. The last link's
    /// removal gives a block of one link to `spares` (if it has room) instead of freeing it.
    ///
    /// - Complexity: Amortized O(1): a compaction, O(*n*) in the list, runs only after *n*
    ///   removals.
    mutating func remove(
        at slot: Int,
        of observer: _Node,
        spares: inout _SpareObserverBlocks,
        moving: (_Link, Int) -> Void
    ) -> _Ref<_Node>? {
        guard slots.contains(slot),
            links[slot].ref.refers(to: observer)
        else { return nil }
        visit()
        let removed = links[slot].ref
        let header = self.header
        header.pointee.live &-= 1
        if header.pointee.live == 0 {
            let block = storage.unsafelyUnwrapped
            if header.pointee.capacity != 1 || !spares.give(block) { block.deallocate() }
            storage = nil
            return removed
        }
        if slot == Int(header.pointee.end) - 1 {
            header.pointee.end &-= 1
            while links[Int(header.pointee.end) - 1].isTombstone {
                visit()
                header.pointee.end &-= 1
                header.pointee.holes &-= 1
            }
        } else {
            links[slot] = .tombstone
            header.pointee.holes &+= 1
            if slot == Int(header.pointee.head) {
                while links[Int(header.pointee.head)].isTombstone {
                    visit()
                    header.pointee.head &+= 1
                }
            }
        }
        if header.pointee.holes > Int32(Self.tombstonesBeforeCompaction), header.pointee.holes > header.pointee.live {
            compact(moving: moving)
        }
        return removed
    }

    /// Drops the tombstones, keeping the order of the live links, and reports each moved link
    /// with its new slot.
    ///
    /// - Complexity: O(*n*) in the slots.
    private mutating func compact(moving: (_Link, Int) -> Void) {
        let header = self.header
        let links = self.links
        var kept = 0
        for slot in Int(header.pointee.head)..<Int(header.pointee.end) {
            let link = links[slot]
            visit()
            if link.isTombstone { continue }
            links[kept] = link
            if slot != kept { moving(link, kept) }
            kept += 1
        }
        header.pointee.end = Int32(kept)
        header.pointee.head = 0
        header.pointee.holes = 0
    }

    private mutating func grow() {
        let old = storage.map { $0.assumingMemoryBound(to: Header.self).pointee }
        let capacity = old.map { Int($0.capacity) } ?? 0
        precondition(capacity < Int(Int32.max) / 2, "Ripple: a node has more than \(Int32.max / 2) observers")
        // One link first: most observed nodes have one observer.
        let newCapacity = Swift.max(capacity * 2, 1)
        let larger = UnsafeMutableRawPointer.allocate(
            byteCount: Self.linksOffset + newCapacity * MemoryLayout<_Link>.stride,
            alignment: Swift.max(MemoryLayout<Header>.alignment, MemoryLayout<_Link>.alignment)
        )
        larger.bindMemory(to: Header.self, capacity: 1).initialize(
            to: Header(
                end: old?.end ?? 0, capacity: Int32(newCapacity), live: old?.live ?? 0, head: old?.head ?? 0,
                holes: old?.holes ?? 0)
        )
        let newLinks = (larger + Self.linksOffset).bindMemory(to: _Link.self, capacity: newCapacity)
        if let storage, let old {
            newLinks.moveInitialize(
                from: (storage + Self.linksOffset).assumingMemoryBound(to: _Link.self), count: Int(old.end))
            storage.deallocate()
        }
        storage = larger
    }

    @inline(__always)
    private mutating func visit() {
        #if RIPPLE_INVARIANTS
        slotsVisited += 1
        #endif
    }

    @inline(__always)
    private func checkSlot(_ slot: Int) {
        #if RIPPLE_INVARIANTS
        precondition(slots.contains(slot), "Ripple internal error: observer slot \(slot) out of \(slots)")
        #endif
    }
}

/// Allocations of observer lists of one link that emptied, kept for the next list that gets a
/// first observer (see `_ObserverList`). The graph owns one, used under its lock; a list of
/// blocks linked through their first word, at most `maximum` of them (under 4 KiB).
struct _SpareObserverBlocks: ~Copyable {
    /// The first spare block; each holds the address of the next in its first word.
    private var first: UnsafeMutableRawPointer?
    private(set) var count = 0
    /// The most blocks kept; a list emptied beyond that frees its block.
    static let maximum = 64

    init() {}

    deinit {
        var next = first
        while let block = next {
            next = block.load(as: UnsafeMutableRawPointer?.self)
            block.deallocate()
        }
    }

    /// A spare block for a list of one link, or `nil` if there is none.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func take() -> UnsafeMutableRawPointer? {
        guard let block = first else { return nil }
        first = block.load(as: UnsafeMutableRawPointer?.self)
        count &-= 1
        return block
    }

    /// Keeps `block`, the allocation of a list of one link that emptied; returns false, keeping
    /// nothing, when there are `maximum` spare blocks already.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func give(_ block: UnsafeMutableRawPointer) -> Bool {
        guard count < Self.maximum else { return false }
        block.storeBytes(of: first, as: UnsafeMutableRawPointer?.self)
        first = block
        count &+= 1
        return true
    }
}

/// A link from a source to a live observer, saying where the observer keeps the edge it
/// belongs to, so that the edge's `slot` can follow the link when a compaction moves it.
///
/// A link to a subscriber (a reaction, or a computed value's Observation watcher) holds one
/// strong reference counted by hand (see `_Edge`): the graph keeps a live subscriber alive.
/// A link to a computed value holds none: a computed value is live only while something
/// observes it, and each of its observers' edges holds a reference to it; the last of them is
/// dropped under the lock after the value is unlinked from its sources (`unsubscribe`), and
/// released only once the lock is released. So a computed value is never freed while linked,
/// and linking or unlinking it costs no reference counting.
struct _Link {
    let ref: _Ref<_Node>
    /// The edge's index in the observer's `sources` (0 or more), or `~index` for an edge its
    /// evaluation or run in progress replaced: in the graph's `replacedByEvaluations` for a
    /// computed observer, in its entry of `replacedByRuns` for a subscriber.
    var edge: Int

    /// A link to `node`, retaining it if it is a subscriber.
    @inline(__always)
    init(_ node: _Node, edge: Int) {
        ref = node.kind == .computed ? _Ref(node) : _Ref(retaining: node)
        self.edge = edge
    }

    /// The placeholder left where a link was removed (it holds no reference).
    static var tombstone: _Link {
        @inline(__always) get { _Link(tombstoneRef: _tombstone) }
    }

    @inline(__always)
    private init(tombstoneRef: _Ref<_Node>) {
        ref = tombstoneRef
        edge = 0
    }

    @inline(__always)
    var isTombstone: Bool { ref.address == _tombstone.address }

    /// The node (a +0 reference).
    @inline(__always)
    var node: _Node { ref.object }

    /// The observer as a derived node (a +0 reference): every observer reads, so is one.
    @inline(__always)
    var derivedRef: _Ref<_DerivedNode> {
        _Ref(unsafeAddress: ref.address)
    }
}
