/// A growable list of plain values (edges, links) in memory owned by one node.
///
/// Unlike an `Array`, it is not copy-on-write: it has one owner, so appending to it or
/// writing an element does no uniqueness check and no reference counting. Its elements
/// must be trivial (they hold references counted by hand, see `_Edge` and `_Link`).
/// Ownership moves with `take()`; the memory is freed when the owner goes.
struct _Buffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>?
    // 32-bit counts keep the buffer at 16 bytes: every node holds three of them.
    private var storedCount: UInt32 = 0
    private var capacity: UInt32 = 0

    /// The number of elements.
    @inline(__always)
    var count: Int { Int(storedCount) }

    init() {}

    deinit {
        base?.deallocate()
    }

    /// Whether the list is empty.
    @inline(__always)
    var isEmpty: Bool { count == 0 }

    /// Whether the buffer has storage (an emptied one may keep it).
    @inline(__always)
    var isAllocated: Bool { base != nil }

    /// The elements, read in place without bounds checks, for scans (valid until the next
    /// append, removal or `take()`).
    @inline(__always)
    var elementsInPlace: _ElementsInPlace<Element> { _ElementsInPlace(base: base, count: count) }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            #if RIPPLE_INVARIANTS
            precondition(
                index >= 0 && index < count, "Ripple internal error: buffer index \(index) out of 0..<\(count)")
            #endif
            return UnsafePointer(base.unsafelyUnwrapped + index)
        }
        unsafeMutableAddress {
            #if RIPPLE_INVARIANTS
            precondition(
                index >= 0 && index < count, "Ripple internal error: buffer index \(index) out of 0..<\(count)")
            #endif
            return base.unsafelyUnwrapped + index
        }
    }

    /// The last element, if any.
    @inline(__always)
    var last: Element? { count > 0 ? base.unsafelyUnwrapped[count &- 1] : nil }

    @inline(__always)
    mutating func append(_ element: Element) {
        if storedCount == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        storedCount &+= 1
    }

    /// Drops the last `n` elements (which must already have given up their references).
    @inline(__always)
    mutating func removeLast(_ n: Int = 1) {
        storedCount &-= UInt32(truncatingIfNeeded: n)
    }

    /// Drops every element and frees the memory.
    mutating func removeAll() {
        base?.deallocate()
        base = nil
        storedCount = 0
        capacity = 0
    }

    /// Drops every element and keeps the memory for reuse.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        storedCount = 0
    }

    /// Moves the elements out, leaving this list empty.
    mutating func take() -> _Buffer<Element> {
        var taken = _Buffer()
        taken.base = base
        taken.storedCount = storedCount
        taken.capacity = capacity
        base = nil
        storedCount = 0
        capacity = 0
        return taken
    }

    private mutating func grow() {
        precondition(capacity < UInt32.max / 2, "Ripple: a node has more than \(UInt32.max / 2) edges")
        // One element first: most nodes read one source, and most have one observer (a
        // two-element first allocation would leave a slot unused in each of them).
        let newCapacity = Swift.max(capacity &* 2, 1)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: Int(newCapacity))
        if let base {
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = larger
        capacity = newCapacity
    }
}

/// Elements read in place, for a walk that does not change where they live: a buffer's
/// (``_Buffer/elementsInPlace``) or an observer list's slots (``_ObserverList/slotsInUse``).
/// Indices below `count` are the caller's to keep (not checked).
struct _ElementsInPlace<Element> {
    private let base: UnsafePointer<Element>?
    /// The number of elements.
    let count: Int

    init(base: UnsafePointer<Element>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// The element at `index` (`0 ..< count`).
    subscript(index: Int) -> Element {
        @_transparent get { base.unsafelyUnwrapped[index] }
    }
}

// MARK: - One value's raw storage

/// Room for one value of a type known only to the code that stores it: a batch's sole write
/// (`_SoleWrite`), kept in its thread's context without allocating per write.
///
/// Which type it holds, and whether it holds one, is the caller's to know (not checked): the
/// code that initializes it is compiled for the value's type, and so is the code that moves or
/// destroys it (`Stored._performSoleWrite`). Every member names the type (`as:`), so that a
/// call cannot infer another one from its argument or its result.
@usableFromInline @frozen
struct _ValueStorage {
    /// The room itself, allocated once, freed by ``deallocate()`` (with its thread's context).
    @usableFromInline let base: UnsafeMutableRawPointer

    /// Allocates room for one value of at most `byteCount` bytes aligned to at most `alignment`.
    init(byteCount: Int, alignment: Int) {
        base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
    }

    /// Stores `value` in the empty storage.
    @inlinable @inline(__always)
    func initialize<Value>(as type: Value.Type, to value: consuming Value) {
        base.initializeMemory(as: Value.self, to: value)
    }

    /// Takes the stored value out, leaving the storage empty.
    @inlinable @inline(__always)
    func move<Value>(as type: Value.Type) -> Value {
        base.assumingMemoryBound(to: Value.self).move()
    }

    /// Replaces the stored value with `value`; returns the one it held.
    @inlinable @inline(__always)
    func replace<Value>(as type: Value.Type, with value: consuming Value) -> Value {
        let pointer = base.assumingMemoryBound(to: Value.self)
        let old = pointer.move()
        pointer.initialize(to: value)
        return old
    }

    /// Frees the room, which holds no value.
    func deallocate() {
        base.deallocate()
    }

    /// Destroys the stored value, leaving the storage empty.
    @inlinable @inline(__always)
    func destroy<Value>(as type: Value.Type) {
        base.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}

// MARK: - Static text

/// The UTF-8 text of a `StaticString` literal, kept as the address of its first byte: one word
/// (an optional one too), no reference counting.
///
/// A literal's text lives in the binary, never changes and is never freed, and it ends with a
/// null byte (`StaticString.utf8Start`): its address alone is enough to read it back, at any
/// time, from any thread. What a node's origin keeps of its `#fileID` (`_Origin`, and packed in
/// a word, `_OriginStorage`).
struct _StaticText: @unchecked Sendable {
    // @unchecked: the text it points to is immutable and immortal.

    /// The text's first byte.
    private let start: UnsafePointer<UInt8>

    /// The text of `literal`; `nil` when the literal has none in memory (a `StaticString` made
    /// from one Unicode scalar holds the scalar).
    @_transparent
    init?(_ literal: StaticString) {
        guard literal.hasPointerRepresentation else { return nil }
        start = literal.utf8Start
    }

    /// The text whose ``address`` is `address`: unchecked, it must be one that ``address`` gave.
    /// For text packed in a word with other things.
    @_transparent
    init(address: UInt) {
        start = UnsafePointer(bitPattern: address).unsafelyUnwrapped
    }

    /// The address of the text's first byte (never 0), for packing the text in a word.
    @_transparent
    var address: UInt { UInt(bitPattern: start) }

    /// The text as a `String`: its first `utf8Count` bytes, or, when the length is not known
    /// (`nil`), every byte before the null byte that ends it (counted with `strlen`). Invalid
    /// UTF-8 is repaired, as `String(decoding:as:)` does.
    func string(utf8Count: Int?) -> String {
        guard let utf8Count else { return String(cString: start) }
        return String(decoding: UnsafeBufferPointer(start: start, count: utf8Count), as: UTF8.self)
    }
}
