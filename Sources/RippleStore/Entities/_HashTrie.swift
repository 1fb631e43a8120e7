/// A persistent hash map: a hash array mapped trie (32-way, CHAMP layout) whose copies share
/// every node they did not change.
///
/// An entity table lives in a store's state, and a store keeps the previous state while it
/// delivers a commit: with a `Dictionary`, changing one entity of 100 000 would copy all of
/// them. Here a change copies only the nodes on its path (about four for 100 000 keys, each at
/// most 32 entries), and two versions can be compared in time proportional to what changed,
/// skipping the subtrees they share (``diff(from:_:)``).
///
/// Mutating methods copy a node only when it is shared, so many changes in one commit copy each
/// node at most once.
@usableFromInline
struct _HashTrie<Key: Hashable, Value> {
    @usableFromInline var root: _TrieNode<Key, Value>
    @usableFromInline var count: Int

    @inlinable
    init() {
        root = _TrieNode()
        count = 0
    }

    /// - Complexity: O(log₃₂ n).
    @inlinable
    subscript(key: Key) -> Value? {
        root.find(key, _hash(key), 0)
    }

    /// Sets `value` for `key`; returns the value it replaced.
    ///
    /// - Complexity: O(log₃₂ n), plus copying the shared nodes on the path.
    @inlinable
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let old = root.insert(key, value, _hash(key), 0)
        if old == nil { count += 1 }
        return old
    }

    /// Removes `key`; returns its value.
    ///
    /// - Complexity: O(log₃₂ n), plus copying the shared nodes on the path.
    @inlinable
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        let hash = _hash(key)
        guard root.find(key, hash, 0) != nil else { return nil }
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let old = root.remove(key, hash, 0)
        count -= 1
        return old
    }

    @inlinable
    mutating func removeAll() {
        self = _HashTrie()
    }

    /// Calls `body` with every entry, in no particular order.
    @inlinable
    func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        try root.forEach(body)
    }

    /// Whether both share the same root: then they are equal without looking further.
    @inlinable
    func isIdentical(to other: _HashTrie) -> Bool {
        root === other.root
    }

    /// What changed from `old` to `self`: `body(key, oldValue, newValue)` for each key whose
    /// entry was added (`oldValue` nil), removed (`newValue` nil) or replaced (both set; the
    /// caller compares them). Subtrees the two share are skipped.
    ///
    /// - Complexity: O(k log₃₂ n) for k changed entries when `self` was made from `old` by
    ///   changes; O(n) when they share nothing.
    @inlinable
    func diff(from old: _HashTrie, _ body: (Key, Value?, Value?) -> Void) {
        _TrieNode.diff(old.root, root, 0, body)
    }
}

@inlinable @inline(__always)
func _hash<Key: Hashable>(_ key: Key) -> UInt {
    UInt(bitPattern: key.hashValue)
}

/// A trie node: up to 32 slots, each empty, one entry (`dataMap`) or a child (`nodeMap`),
/// stored compactly in slot order. Below the last level of hash bits, a node holds colliding
/// keys in a plain list.
@usableFromInline
final class _TrieNode<Key: Hashable, Value> {
    @usableFromInline var dataMap: UInt32 = 0
    @usableFromInline var nodeMap: UInt32 = 0
    @usableFromInline var keys: [Key] = []
    @usableFromInline var values: [Value] = []
    @usableFromInline var children: [_TrieNode] = []

    @inlinable
    init() {}

    @inlinable
    func copy() -> _TrieNode {
        let node = _TrieNode()
        node.dataMap = dataMap
        node.nodeMap = nodeMap
        node.keys = keys
        node.values = values
        node.children = children
        return node
    }

    /// Whether this node is a collision list (no hash bits left).
    @inlinable
    @inline(__always)
    static func isCollision(_ shift: Int) -> Bool { shift >= UInt.bitWidth }

    @inlinable
    @inline(__always)
    static func bit(_ hash: UInt, _ shift: Int) -> UInt32 {
        1 << UInt32(truncatingIfNeeded: (hash >> UInt(shift)) & 31)
    }

    @inlinable
    @inline(__always)
    static func index(_ map: UInt32, _ bit: UInt32) -> Int {
        (map & (bit &- 1)).nonzeroBitCount
    }

    @inlinable var isEmpty: Bool { keys.isEmpty && children.isEmpty }

    @inlinable
    func find(_ key: Key, _ hash: UInt, _ shift: Int) -> Value? {
        var node = self
        var shift = shift
        while true {
            if Self.isCollision(shift) {
                guard let index = node.keys.firstIndex(of: key) else { return nil }
                return node.values[index]
            }
            let bit = Self.bit(hash, shift)
            if node.dataMap & bit != 0 {
                let index = Self.index(node.dataMap, bit)
                return node.keys[index] == key ? node.values[index] : nil
            }
            guard node.nodeMap & bit != 0 else { return nil }
            node = node.children[Self.index(node.nodeMap, bit)]
            shift += 5
        }
    }

    /// Inserts or replaces (self is uniquely referenced); returns the replaced value.
    @inlinable
    func insert(_ key: Key, _ value: Value, _ hash: UInt, _ shift: Int) -> Value? {
        if Self.isCollision(shift) {
            if let index = keys.firstIndex(of: key) {
                let old = values[index]
                values[index] = value
                return old
            }
            keys.append(key)
            values.append(value)
            return nil
        }
        let bit = Self.bit(hash, shift)
        if dataMap & bit != 0 {
            let index = Self.index(dataMap, bit)
            if keys[index] == key {
                let old = values[index]
                values[index] = value
                return old
            }
            // Two keys in one slot: push both one level down.
            let otherKey = keys.remove(at: index)
            let otherValue = values.remove(at: index)
            dataMap ^= bit
            let child = Self.pair(otherKey, otherValue, _hash(otherKey), key, value, hash, shift + 5)
            nodeMap |= bit
            children.insert(child, at: Self.index(nodeMap, bit))
            return nil
        }
        if nodeMap & bit != 0 {
            let index = Self.index(nodeMap, bit)
            if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
            return children[index].insert(key, value, hash, shift + 5)
        }
        let index = Self.index(dataMap, bit)
        keys.insert(key, at: index)
        values.insert(value, at: index)
        dataMap |= bit
        return nil
    }

    /// A node holding two entries whose hashes agree below `shift`.
    @inlinable
    static func pair(
        _ key1: Key, _ value1: Value, _ hash1: UInt, _ key2: Key, _ value2: Value, _ hash2: UInt, _ shift: Int
    ) -> _TrieNode {
        let node = _TrieNode()
        if isCollision(shift) {
            node.keys = [key1, key2]
            node.values = [value1, value2]
            return node
        }
        let bit1 = bit(hash1, shift)
        let bit2 = bit(hash2, shift)
        if bit1 == bit2 {
            node.nodeMap = bit1
            node.children = [pair(key1, value1, hash1, key2, value2, hash2, shift + 5)]
        } else {
            node.dataMap = bit1 | bit2
            node.keys = bit1 < bit2 ? [key1, key2] : [key2, key1]
            node.values = bit1 < bit2 ? [value1, value2] : [value2, value1]
        }
        return node
    }

    /// Removes a key known to be present (self is uniquely referenced); returns its value.
    @inlinable
    func remove(_ key: Key, _ hash: UInt, _ shift: Int) -> Value? {
        if Self.isCollision(shift) {
            guard let index = keys.firstIndex(of: key) else { return nil }
            keys.remove(at: index)
            return values.remove(at: index)
        }
        let bit = Self.bit(hash, shift)
        if dataMap & bit != 0 {
            let index = Self.index(dataMap, bit)
            guard keys[index] == key else { return nil }
            keys.remove(at: index)
            dataMap ^= bit
            return values.remove(at: index)
        }
        guard nodeMap & bit != 0 else { return nil }
        let index = Self.index(nodeMap, bit)
        if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
        let child = children[index]
        let old = child.remove(key, hash, shift + 5)
        if child.children.isEmpty, child.keys.count <= 1 {
            // Keep the trie compact: a child with one entry moves up into this slot.
            children.remove(at: index)
            nodeMap ^= bit
            if let onlyKey = child.keys.first {
                let dataIndex = Self.index(dataMap, bit)
                keys.insert(onlyKey, at: dataIndex)
                values.insert(child.values[0], at: dataIndex)
                dataMap |= bit
            }
        }
        return old
    }

    @inlinable
    func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        for index in keys.indices { try body(keys[index], values[index]) }
        for child in children { try child.forEach(body) }
    }

    @inlinable
    static func diff(_ old: _TrieNode, _ new: _TrieNode, _ shift: Int, _ body: (Key, Value?, Value?) -> Void) {
        if old === new { return }
        if isCollision(shift) {
            for (index, key) in old.keys.enumerated() {
                if let newIndex = new.keys.firstIndex(of: key) {
                    body(key, old.values[index], new.values[newIndex])
                } else {
                    body(key, old.values[index], nil)
                }
            }
            for (index, key) in new.keys.enumerated() where !old.keys.contains(key) {
                body(key, nil, new.values[index])
            }
            return
        }
        let occupied = old.dataMap | old.nodeMap | new.dataMap | new.nodeMap
        var remaining = occupied
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            remaining &= remaining &- 1
            let oldIsEntry = old.dataMap & bit != 0
            let newIsEntry = new.dataMap & bit != 0
            let oldIsNode = old.nodeMap & bit != 0
            let newIsNode = new.nodeMap & bit != 0
            if oldIsEntry {
                let index = Self.index(old.dataMap, bit)
                let key = old.keys[index]
                let value = old.values[index]
                if newIsEntry {
                    let newIndex = Self.index(new.dataMap, bit)
                    let newKey = new.keys[newIndex]
                    if key == newKey {
                        body(key, value, new.values[newIndex])
                    } else {
                        body(key, value, nil)
                        body(newKey, nil, new.values[newIndex])
                    }
                } else if newIsNode {
                    let node = new.children[Self.index(new.nodeMap, bit)]
                    body(key, value, node.find(key, _hash(key), shift + 5))
                    node.forEach { otherKey, otherValue in
                        if otherKey != key { body(otherKey, nil, otherValue) }
                    }
                } else {
                    body(key, value, nil)
                }
            } else if oldIsNode {
                let oldNode = old.children[Self.index(old.nodeMap, bit)]
                if newIsEntry {
                    let newIndex = Self.index(new.dataMap, bit)
                    let key = new.keys[newIndex]
                    body(key, oldNode.find(key, _hash(key), shift + 5), new.values[newIndex])
                    oldNode.forEach { otherKey, otherValue in
                        if otherKey != key { body(otherKey, otherValue, nil) }
                    }
                } else if newIsNode {
                    diff(oldNode, new.children[Self.index(new.nodeMap, bit)], shift + 5, body)
                } else {
                    oldNode.forEach { body($0, $1, nil) }
                }
            } else if newIsEntry {
                let newIndex = Self.index(new.dataMap, bit)
                body(new.keys[newIndex], nil, new.values[newIndex])
            } else if newIsNode {
                new.children[Self.index(new.nodeMap, bit)].forEach { body($0, nil, $1) }
            }
        }
    }
}

extension _TrieNode: @unchecked Sendable where Key: Sendable, Value: Sendable {}
extension _HashTrie: Sendable where Key: Sendable, Value: Sendable {}
