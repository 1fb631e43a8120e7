/// A growable list of plain values (edges, links) in memory owned by one node.
///
/// Unlike an `Array`, it is not copy-on-write: it has one owner, so appending to it or
/// writing an element does no uniqueness check and no reference counting. Its elements
/// must be trivial (they hold references counted by hand, see `_Edge` and `_Link`).
/// Ownership moves with `take()`; the memory is freed when the owner goes.
struct _Buffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>?
    /// The number of elements.
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit {
        base?.deallocate()
    }

    /// Whether the list is empty.
    @inline(__always)
    var isEmpty: Bool { count == 0 }

    /// The elements' memory, for scans (valid until the next append, removal or `take()`).
    @inline(__always)
    var elements: UnsafeMutablePointer<Element>? { base }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            #if RIPPLE_INVARIANTS
            precondition(index >= 0 && index < count, "Ripple internal error: buffer index \(index) out of 0..<\(count)")
            #endif
            return UnsafePointer(base.unsafelyUnwrapped + index)
        }
        unsafeMutableAddress {
            #if RIPPLE_INVARIANTS
            precondition(index >= 0 && index < count, "Ripple internal error: buffer index \(index) out of 0..<\(count)")
            #endif
            return base.unsafelyUnwrapped + index
        }
    }

    /// The last element, if any.
    @inline(__always)
    var last: Element? { count > 0 ? base.unsafelyUnwrapped[count &- 1] : nil }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count &+= 1
    }

    /// Drops the last `n` elements (which must already have given up their references).
    @inline(__always)
    mutating func removeLast(_ n: Int = 1) {
        count &-= n
    }

    /// Drops every element and frees the memory.
    mutating func removeAll() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }

    /// Drops every element and keeps the memory for reuse.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        count = 0
    }

    /// Moves the elements out, leaving this list empty.
    mutating func take() -> _Buffer<Element> {
        var taken = _Buffer()
        taken.base = base
        taken.count = count
        taken.capacity = capacity
        base = nil
        count = 0
        capacity = 0
        return taken
    }

    /// The elements, copied into an array.
    func copied() -> ContiguousArray<Element> {
        guard let base else { return [] }
        return ContiguousArray(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow() {
        let newCapacity = Swift.max(capacity &* 2, 2)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = larger
        capacity = newCapacity
    }
}
