/// The edits of one ``ObservableArray/edit(_:)`` call, reported as one ``ListChanges``.
///
/// ```swift
/// todos.edit { edit in
///     edit.remove(at: 0)
///     edit.append(Todo(title: "Write the docs"))
///     edit.move(from: 2, to: 0)
/// }
/// ```
///
/// Every index is checked: an index out of range stops the program with a message that
/// names the call, the index and the valid range.
public struct ArrayEdit<Element> {
    var storage: _ArrayStorage<Element>

    init(_ storage: _ArrayStorage<Element>) { self.storage = storage }

    /// The elements as edited so far.
    public var elements: [Element] { storage.elements }

    /// The number of elements.
    public var count: Int { storage.elements.count }

    /// The element at `index`; assigning it reports an update of that element.
    public subscript(index: Int) -> Element {
        get {
            check(index, in: 0..<count, "subscript")
            return storage.elements[index]
        }
        set {
            check(index, in: 0..<count, "subscript")
            storage.elements[index] = newValue
            storage.revisions[index] = storage.makeKey()
        }
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Adds `elements` at the end.
    public mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { insert(element, at: count) }
    }

    /// Inserts `element` at `index` (which may be `count`).
    public mutating func insert(_ element: Element, at index: Int) {
        check(index, in: 0..<(count + 1), "insert(_:at:)")
        let key = storage.makeKey()
        storage.elements.insert(element, at: index)
        storage.keys.insert(key, at: index)
        storage.revisions.insert(key, at: index)
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        check(index, in: 0..<count, "remove(at:)")
        storage.keys.remove(at: index)
        storage.revisions.remove(at: index)
        return storage.elements.remove(at: index)
    }

    /// Removes the elements that satisfy `shouldBeRemoved`.
    public mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        var index = 0
        while index < count {
            if shouldBeRemoved(storage.elements[index]) { remove(at: index) } else { index += 1 }
        }
    }

    /// Removes every element.
    public mutating func removeAll() {
        storage.elements.removeAll()
        storage.keys.removeAll()
        storage.revisions.removeAll()
    }

    /// Moves the element at `source` so that it ends at `destination` (an index in the array
    /// after the move), as a table view's user move does.
    public mutating func move(from source: Int, to destination: Int) {
        check(source, in: 0..<count, "move(from:to:)")
        check(destination, in: 0..<count, "move(from:to:)")
        let element = storage.elements.remove(at: source)
        let key = storage.keys.remove(at: source)
        let revision = storage.revisions.remove(at: source)
        storage.elements.insert(element, at: destination)
        storage.keys.insert(key, at: destination)
        storage.revisions.insert(revision, at: destination)
    }

    /// Replaces every element with `elements`: all are reported removed and the new ones
    /// inserted. For `Identifiable` elements, `replaceAll(with:)` keeps the identity of
    /// elements present in both.
    public mutating func replaceAll(with elements: [Element]) {
        removeAll()
        append(contentsOf: elements)
    }

    private func check(_ index: Int, in range: Range<Int>, _ call: String) {
        guard range.contains(index) else {
            _bindingsFailure(
                "ObservableArray \(call): index \(index) is out of range \(range.lowerBound)..<\(range.upperBound) (the array has \(count) elements)."
            )
        }
    }
}

extension ArrayEdit where Element: Identifiable {
    /// Replaces every element with `elements`, matching elements by `id`: an element present
    /// in both keeps its identity, and is reported updated (its content cannot be compared);
    /// the others are reported removed or inserted.
    ///
    /// - Complexity: O(*n* + *m*).
    public mutating func replaceAll(with elements: [Element]) {
        replaceAll(with: elements, isUpdated: { _, _ in true })
    }
}

extension ArrayEdit where Element: Identifiable & Equatable {
    /// Replaces every element with `elements`, matching elements by `id`: an element present
    /// in both is reported updated when it differs, moved when it moved.
    ///
    /// - Complexity: O(*n* + *m*).
    public mutating func replaceAll(with elements: [Element]) {
        replaceAll(with: elements, isUpdated: !=)
    }
}

extension ArrayEdit {
    /// `replaceAll(with:)` as the overload for the elements' actual type does it, where the
    /// code is generic over them (``ObservableArray/value``'s setter): matching by `id` for
    /// `Identifiable` elements, reporting updates by `!=` for `Identifiable & Equatable` ones,
    /// matching equal elements in order for other `Equatable` ones.
    ///
    /// - Complexity: O(*n* + *m*).
    mutating func _replaceAllByType(with elements: [Element]) {
        func byID<T: Identifiable>(_: T.Type, isUpdated: (T, T) -> Bool) {
            var edit = self as! ArrayEdit<T>
            edit.replaceAll(with: elements as! [T], isUpdated: isUpdated)
            self = edit as! ArrayEdit<Element>
        }
        func equatable<T: Identifiable & Equatable>(_ type: T.Type) { byID(type, isUpdated: !=) }
        func identifiable<T: Identifiable>(_ type: T.Type) { byID(type, isUpdated: { _, _ in true }) }
        func byEquality<T: Equatable>(_: T.Type) {
            var edit = self as! ArrayEdit<T>
            edit._replaceAll(matchingEqual: elements as! [T])
            self = edit as! ArrayEdit<Element>
        }
        if let type = Element.self as? any (Identifiable & Equatable).Type {
            equatable(type)
        } else if let type = Element.self as? any Identifiable.Type {
            identifiable(type)
        } else if let type = Element.self as? any Equatable.Type {
            byEquality(type)
        } else {
            replaceAll(with: elements)
        }
    }
}

extension ArrayEdit where Element: Equatable {
    /// Replaces every element with `elements`, keeping the identity of the elements the
    /// shortest edit script (`difference(from:)`) leaves in place: `array.value.append(4)` is
    /// one insertion, `array.value.remove(at: 0)` one removal, as the same call through
    /// ``ObservableArray/edit(_:)`` reports. Equal elements are matched in order. An element
    /// inserted where the script removed one keeps that one's identity, as an update:
    /// `array.value[1] = 9` is one update, as through `edit(_:)`.
    ///
    /// - Complexity: O((*n* + *m*) · *d*), *d* the number of elements removed and inserted.
    mutating func _replaceAll(matchingEqual elements: [Element]) {
        var removed = [Bool](repeating: false, count: count)
        var inserted = [Bool](repeating: false, count: elements.count)
        for change in elements.difference(from: storage.elements) {
            switch change {
            case .remove(let offset, _, _): removed[offset] = true
            case .insert(let offset, _, _): inserted[offset] = true
            }
        }
        var keys = [UInt64]()
        var revisions = [UInt64]()
        keys.reserveCapacity(elements.count)
        revisions.reserveCapacity(elements.count)
        var old = 0
        for new in elements.indices {
            if inserted[new] {
                if old < removed.count, removed[old] {
                    // In the place of a removed element: that element, updated.
                    keys.append(storage.keys[old])
                    revisions.append(storage.makeKey())
                    old += 1
                } else {
                    let key = storage.makeKey()
                    keys.append(key)
                    revisions.append(key)
                }
                continue
            }
            while removed[old] { old += 1 }
            keys.append(storage.keys[old])
            revisions.append(storage.revisions[old])
            old += 1
        }
        storage.elements = elements
        storage.keys = keys
        storage.revisions = revisions
    }
}

extension ArrayEdit where Element: Identifiable {
    mutating func replaceAll(with elements: [Element], isUpdated: (Element, Element) -> Bool) {
        var byID = [Element.ID: [Int]](minimumCapacity: count)
        for index in storage.elements.indices.reversed() { byID[storage.elements[index].id, default: []].append(index) }
        var keys = [UInt64]()
        var revisions = [UInt64]()
        keys.reserveCapacity(elements.count)
        revisions.reserveCapacity(elements.count)
        for element in elements {
            if let old = byID[element.id]?.popLast() {
                keys.append(storage.keys[old])
                revisions.append(isUpdated(storage.elements[old], element) ? storage.makeKey() : storage.revisions[old])
            } else {
                let key = storage.makeKey()
                keys.append(key)
                revisions.append(key)
            }
        }
        storage.elements = elements
        storage.keys = keys
        storage.revisions = revisions
    }
}

/// An observable array's contents: the elements, a hidden identity per element (kept
/// through moves and updates) and a revision per element (new at each update), from which
/// any two versions are diffed by identity.
struct _ArrayStorage<Element> {
    var elements: [Element]
    var keys: [UInt64]
    var revisions: [UInt64]
    var nextKey: UInt64

    init(_ elements: [Element]) {
        self.elements = elements
        keys = Array(0..<UInt64(elements.count))
        revisions = keys
        nextKey = UInt64(elements.count)
    }

    mutating func makeKey() -> UInt64 {
        defer { nextKey &+= 1 }
        return nextKey
    }

    /// The changes from `old` to this version.
    func changes(since old: _ArrayStorage) -> ListChanges {
        _diff(
            oldCount: old.keys.count,
            newCount: keys.count,
            oldID: { old.keys[$0] },
            newID: { keys[$0] },
            isUpdated: { old.revisions[$0] != revisions[$1] }
        )
    }
}

extension _ArrayStorage: Sendable where Element: Sendable {}
