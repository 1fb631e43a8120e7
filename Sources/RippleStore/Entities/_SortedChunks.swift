/// A sorted list in a persistent B+ tree: leaves of at most 128 elements, inner nodes of at
/// most 32 children, every node shared between copies until one of them changes it.
///
/// An ordered index lives in a table, in a store's state, and the store keeps the previous
/// state while it delivers a commit. Here a change copies only the nodes on its path: the
/// spine's few inner nodes (O(log n) of them, each at most 32 references) and one leaf; every
/// other node stays shared with the previous state, whatever the list's size. Inner nodes keep
/// each child's last element and element count, so a search, and an element's rank
/// (``rank(of:)``), are O(log n) too.
///
/// Mutating methods copy a node only when it is shared, so many changes in one commit copy each
/// node at most once. A node that falls below a quarter of its capacity is merged with, or
/// takes elements from, a sibling, so the tree stays O(log n) deep under any mix of changes.
@usableFromInline
struct _SortedChunks<Element: Comparable> {
    @usableFromInline var root: _ChunkNode<Element>?

    @inlinable
    init() {}

    /// The number of elements.
    @inlinable var count: Int { root?.count ?? 0 }

    /// Inserts `element` (before the elements equal to it: the lists' elements are distinct).
    ///
    /// - Complexity: O(log n), plus copying the shared nodes on the path: at most one leaf and
    ///   O(log n) inner nodes.
    @inlinable
    mutating func insert(_ element: Element) {
        guard root != nil else {
            root = _ChunkNode(items: [element])
            return
        }
        if !isKnownUniquelyReferenced(&root!) { root = root!.copy() }
        if let right = root!.insert(element) {
            let left = root!
            root = _ChunkNode(children: [left, right])
        }
    }

    /// Removes `element`; returns whether it was there.
    ///
    /// - Complexity: O(log n), plus copying the shared nodes on the path (the tables remove
    ///   only elements they hold; for one that is not there, the path is copied for nothing).
    @inlinable
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard root != nil else { return false }
        if !isKnownUniquelyReferenced(&root!) { root = root!.copy() }
        let node = root!
        guard node.remove(element) else { return false }
        if node.count == 0 {
            root = nil
        } else if node.children.count == 1 {
            // A root with one child: the child is the root.
            root = node.children[0]
        }
        return true
    }

    /// Whether `element` is in the list.
    ///
    /// - Complexity: O(log n).
    @inlinable
    func contains(_ element: Element) -> Bool {
        root?.contains(element) ?? false
    }

    /// How many elements are less than `element`: its position, if it is in the list.
    ///
    /// - Complexity: O(log n).
    @inlinable
    func rank(of element: Element) -> Int {
        guard var node = root else { return 0 }
        var rank = 0
        while !node.isLeaf {
            let index = node.childIndex(for: element)
            for child in node.children[..<index] { rank += child.count }
            node = node.children[index]
        }
        return rank + node.insertionIndex(of: element)
    }

    /// Calls `body` with every element, in order, until it returns `false`.
    @inlinable
    func forEach(_ body: (Element) throws -> Bool) rethrows {
        guard let root else { return }
        _ = try root.forEach(body)
    }

    /// Whether both share their root: then they are equal without looking further.
    @inlinable
    func isIdentical(to other: _SortedChunks) -> Bool {
        root === other.root
    }

    /// The elements in order.
    ///
    /// - Complexity: O(n).
    @inlinable
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        root?.append(to: &result)
        return result
    }
}

/// A node of a ``_SortedChunks``: a leaf holding elements, or an inner node holding children
/// with the last element of each. Shared between copies until one of them changes it.
@usableFromInline
final class _ChunkNode<Element: Comparable> {
    /// A leaf's elements, in order (an inner node's is empty).
    @usableFromInline var items: [Element]
    /// An inner node's children, in order (a leaf's is empty).
    @usableFromInline var children: [_ChunkNode]
    /// The last element of each child.
    @usableFromInline var lasts: [Element]
    /// The number of elements below this node.
    @usableFromInline var count: Int

    @inlinable
    init(items: [Element]) {
        self.items = items
        children = []
        lasts = []
        count = items.count
    }

    @inlinable
    init(children: [_ChunkNode]) {
        items = []
        self.children = children
        lasts = children.map(\.last)
        count = children.reduce(0) { $0 + $1.count }
    }

    @inlinable
    init(items: [Element], children: [_ChunkNode], lasts: [Element], count: Int) {
        self.items = items
        self.children = children
        self.lasts = lasts
        self.count = count
    }

    @inlinable
    func copy() -> _ChunkNode {
        _ChunkNode(items: items, children: children, lasts: lasts, count: count)
    }

    @inlinable var isLeaf: Bool { children.isEmpty }

    /// The greatest element below this node (the node is not empty).
    @inlinable var last: Element { isLeaf ? items[items.count - 1] : lasts[lasts.count - 1] }

    /// Elements (a leaf) or children (an inner node).
    @inlinable var size: Int { isLeaf ? items.count : children.count }

    @inlinable var capacity: Int { isLeaf ? 128 : 32 }

    /// The first child whose last element is not less than `element`, or the last child.
    @inlinable
    func childIndex(for element: Element) -> Int {
        var low = 0
        var high = lasts.count - 1
        while low < high {
            let middle = (low + high) / 2
            if lasts[middle] < element { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A leaf's first position whose element is not less than `element`.
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

    @inlinable
    func contains(_ element: Element) -> Bool {
        var node = self
        while !node.isLeaf { node = node.children[node.childIndex(for: element)] }
        let position = node.insertionIndex(of: element)
        return position < node.items.count && node.items[position] == element
    }

    /// Inserts `element` below this node (uniquely referenced); returns the new right sibling
    /// when the node had to split.
    @inlinable
    func insert(_ element: Element) -> _ChunkNode? {
        count += 1
        if isLeaf {
            let position = insertionIndex(of: element)
            items.insert(element, at: position)
            #if RIPPLE_INVARIANTS
            checkLeaf(around: position, "inserting")
            #endif
            return items.count > capacity ? split() : nil
        }
        let index = childIndex(for: element)
        #if RIPPLE_INVARIANTS
        if index > 0 {
            precondition(
                lasts[index - 1] < element,
                "RippleStore invariant: a sorted index would insert \(element) after \(lasts[index - 1]) into the wrong child."
            )
        }
        #endif
        if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
        let child = children[index]
        let right = child.insert(element)
        lasts[index] = child.last
        if let right {
            children.insert(right, at: index + 1)
            lasts.insert(right.last, at: index + 1)
        }
        #if RIPPLE_INVARIANTS
        checkInner(around: index, "inserting")
        #endif
        return children.count > capacity ? split() : nil
    }

    /// Moves the upper half into a new node, returned.
    @inlinable
    func split() -> _ChunkNode {
        let half = size / 2
        let right: _ChunkNode
        if isLeaf {
            right = _ChunkNode(items: Array(items[half...]))
            items.removeSubrange(half...)
        } else {
            right = _ChunkNode(items: [], children: Array(children[half...]), lasts: Array(lasts[half...]), count: 0)
            right.count = right.children.reduce(0) { $0 + $1.count }
            children.removeSubrange(half...)
            lasts.removeSubrange(half...)
        }
        count -= right.count
        return right
    }

    /// Removes `element` from below this node (uniquely referenced); returns whether it was
    /// there.
    @inlinable
    func remove(_ element: Element) -> Bool {
        if isLeaf {
            let position = insertionIndex(of: element)
            guard position < items.count, items[position] == element else { return false }
            count -= 1
            items.remove(at: position)
            #if RIPPLE_INVARIANTS
            if !items.isEmpty { checkLeaf(around: min(position, items.count - 1), "removing") }
            #endif
            return true
        }
        let index = childIndex(for: element)
        if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
        let child = children[index]
        guard child.remove(element) else { return false }
        count -= 1
        if child.count == 0 {
            children.remove(at: index)
            lasts.remove(at: index)
        } else {
            lasts[index] = child.last
            if child.size < child.capacity / 4 { rebalance(index) }
        }
        #if RIPPLE_INVARIANTS
        if !children.isEmpty { checkInner(around: min(index, children.count - 1), "removing") }
        #endif
        return true
    }

    /// Merges the small child at `index` with a sibling, or moves elements from the sibling
    /// into it, so that both are at least a quarter full.
    @inlinable
    func rebalance(_ index: Int) {
        guard children.count > 1 else { return }
        let left = index + 1 < children.count ? index : index - 1
        let right = left + 1
        if !isKnownUniquelyReferenced(&children[left]) { children[left] = children[left].copy() }
        if !isKnownUniquelyReferenced(&children[right]) { children[right] = children[right].copy() }
        let (a, b) = (children[left], children[right])
        let capacity = a.capacity
        if a.size + b.size <= capacity {
            // Merge the right into the left.
            a.items += b.items
            a.children += b.children
            a.lasts += b.lasts
            a.count += b.count
            children.remove(at: right)
            lasts.remove(at: right)
            lasts[left] = a.last
            return
        }
        // Share evenly: the left keeps the first half.
        let total = a.size + b.size
        let keep = total / 2
        if a.isLeaf {
            var all = a.items + b.items
            b.items = Array(all[keep...])
            all.removeSubrange(keep...)
            a.items = all
            a.count = a.items.count
            b.count = b.items.count
        } else {
            var allChildren = a.children + b.children
            var allLasts = a.lasts + b.lasts
            b.children = Array(allChildren[keep...])
            b.lasts = Array(allLasts[keep...])
            allChildren.removeSubrange(keep...)
            allLasts.removeSubrange(keep...)
            a.children = allChildren
            a.lasts = allLasts
            let moved = a.count + b.count
            a.count = a.children.reduce(0) { $0 + $1.count }
            b.count = moved - a.count
        }
        lasts[left] = a.last
        lasts[right] = b.last
    }

    @inlinable
    func forEach(_ body: (Element) throws -> Bool) rethrows -> Bool {
        if isLeaf {
            for item in items where try !body(item) { return false }
            return true
        }
        for child in children where try !child.forEach(body) { return false }
        return true
    }

    @inlinable
    func append(to result: inout [Element]) {
        if isLeaf {
            result.append(contentsOf: items)
        } else {
            for child in children { child.append(to: &result) }
        }
    }

    #if RIPPLE_INVARIANTS
    /// The invariant runs, at a leaf: the element at `position` is strictly between its
    /// neighbours, and the count is the number of elements. O(1).
    @usableFromInline
    func checkLeaf(around position: Int, _ operation: String) {
        precondition(
            count == items.count,
            "RippleStore invariant: a sorted index's leaf counts \(count) elements and holds \(items.count) after \(operation)."
        )
        if position > 0 {
            precondition(
                items[position - 1] < items[position],
                "RippleStore invariant: a sorted index is out of order after \(operation): \(items[position - 1]) is not before \(items[position])."
            )
        }
        if position + 1 < items.count {
            precondition(
                items[position] < items[position + 1],
                "RippleStore invariant: a sorted index is out of order after \(operation): \(items[position]) is not before \(items[position + 1])."
            )
        }
    }

    /// The invariant runs, at an inner node on a change's path: the count is the sum of the
    /// children's, and around the changed child `index`, each recorded last element is the
    /// child's and they increase strictly. O(children): what the path's copy costs.
    @usableFromInline
    func checkInner(around index: Int, _ operation: String) {
        var sum = 0
        for child in children { sum += child.count }
        precondition(
            count == sum,
            "RippleStore invariant: a sorted index's node counts \(count) elements and its children \(sum) after \(operation)."
        )
        precondition(
            lasts.count == children.count,
            "RippleStore invariant: a sorted index's node has \(lasts.count) last elements for \(children.count) children after \(operation)."
        )
        for position in max(0, index - 1)...min(children.count - 1, index + 1) {
            precondition(
                lasts[position] == children[position].last,
                "RippleStore invariant: a sorted index's node records \(lasts[position]) as its child's last element, which is \(children[position].last), after \(operation)."
            )
            if position > 0 {
                precondition(
                    lasts[position - 1] < lasts[position],
                    "RippleStore invariant: a sorted index is out of order after \(operation): \(lasts[position - 1]) is not before \(lasts[position])."
                )
            }
        }
    }
    #endif
}

extension _ChunkNode: @unchecked Sendable where Element: Sendable {}
extension _SortedChunks: Sendable where Element: Sendable {}
