/// A sorted list kept in chunks of at most 512 elements: inserting or removing one element
/// moves at most a chunk, and a copy shares every chunk it did not change, so an ordered index
/// of 100 000 entities is updated incrementally inside each commit (no re-sort, no full copy).
@usableFromInline
struct _SortedChunks<Element: Comparable> {
    @usableFromInline var chunks: [_Chunk<Element>] = []
    @usableFromInline var count = 0

    @inlinable
    static var maximumChunk: Int { 512 }

    /// The index of the first chunk whose last element is not less than `element`, or the last
    /// chunk when every element is less.
    @inlinable
    func chunkIndex(for element: Element) -> Int {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle].items[chunks[middle].items.count - 1] < element {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// - Complexity: O(log n + 512).
    @inlinable
    mutating func insert(_ element: Element) {
        count += 1
        if chunks.isEmpty {
            chunks.append(_Chunk([element]))
            return
        }
        let index = chunkIndex(for: element)
        if !isKnownUniquelyReferenced(&chunks[index]) { chunks[index] = _Chunk(chunks[index].items) }
        let chunk = chunks[index]
        let position = chunk.insertionIndex(of: element)
        chunk.items.insert(element, at: position)
        #if RIPPLE_INVARIANTS
        checkOrder(around: index, position, "inserting")
        #endif
        if chunk.items.count > Self.maximumChunk {
            let upper = _Chunk(Array(chunk.items[(Self.maximumChunk / 2)...]))
            chunk.items.removeSubrange((Self.maximumChunk / 2)...)
            chunks.insert(upper, at: index + 1)
        }
    }

    /// Removes `element`; returns whether it was there.
    ///
    /// - Complexity: O(log n + 512).
    @inlinable
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard !chunks.isEmpty else { return false }
        let index = chunkIndex(for: element)
        let position = chunks[index].insertionIndex(of: element)
        guard position < chunks[index].items.count, chunks[index].items[position] == element else { return false }
        count -= 1
        if chunks[index].items.count == 1 {
            chunks.remove(at: index)
            return true
        }
        if !isKnownUniquelyReferenced(&chunks[index]) { chunks[index] = _Chunk(chunks[index].items) }
        chunks[index].items.remove(at: position)
        #if RIPPLE_INVARIANTS
        if position > 0 { checkOrder(around: index, position - 1, "removing") }
        #endif
        return true
    }

    #if RIPPLE_INVARIANTS
    /// The invariant runs: the element at `position` of chunk `index` is strictly between its
    /// neighbours (in the chunk, or the last of the chunk before and the first of the next).
    /// O(1): a debug build keeps each operation's complexity.
    @usableFromInline
    func checkOrder(around index: Int, _ position: Int, _ operation: String) {
        let items = chunks[index].items
        let element = items[position]
        let previous = position > 0 ? items[position - 1] : index > 0 ? chunks[index - 1].items.last : nil
        let next = position + 1 < items.count ? items[position + 1] : index + 1 < chunks.count ? chunks[index + 1].items.first : nil
        if let previous {
            precondition(previous < element, "RippleStore invariant: a sorted index is out of order after \(operation): \(previous) is not before \(element).")
        }
        if let next {
            precondition(element < next, "RippleStore invariant: a sorted index is out of order after \(operation): \(element) is not before \(next).")
        }
    }
    #endif

    /// How many elements are less than `element`: its position, if it is in the list.
    ///
    /// - Complexity: O(log n + n / 512).
    @inlinable
    func rank(of element: Element) -> Int {
        guard !chunks.isEmpty else { return 0 }
        let index = chunkIndex(for: element)
        return chunks[..<index].reduce(0) { $0 + $1.items.count } + chunks[index].insertionIndex(of: element)
    }

    /// Calls `body` with every element, in order, until it returns `false`.
    @inlinable
    func forEach(_ body: (Element) throws -> Bool) rethrows {
        for chunk in chunks {
            for item in chunk.items where try !body(item) { return }
        }
    }

    /// Whether both share every chunk: then they are equal without looking further.
    @inlinable
    func isIdentical(to other: _SortedChunks) -> Bool {
        chunks.count == other.chunks.count && zip(chunks, other.chunks).allSatisfy { $0 === $1 }
    }

    /// The elements in order.
    @inlinable
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk.items) }
        return result
    }
}

/// A chunk of a ``_SortedChunks``, shared between copies until one of them changes it.
@usableFromInline
final class _Chunk<Element: Comparable> {
    @usableFromInline var items: [Element]

    @inlinable
    init(_ items: [Element]) {
        self.items = items
    }

    /// The first position whose element is not less than `element`.
    @inlinable
    func insertionIndex(of element: Element) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle] < element { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension _Chunk: @unchecked Sendable where Element: Sendable {}
extension _SortedChunks: Sendable where Element: Sendable {}
