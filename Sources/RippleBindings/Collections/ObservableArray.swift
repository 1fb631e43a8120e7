import Ripple
import RippleModels

/// An array that reports what changed, element by element: the insertions, removals, moves
/// and updates a table or collection view animates (Fisticuffs' observable arrays).
///
/// Edit it with its methods, or several edits at once with ``edit(_:)``; read it with
/// ``value`` (tracked, like a `Stored`) and follow its changes with
/// ``didChangeElements(withCurrent:_:)``:
///
/// ```swift
/// let days = ObservableArray(["Monday", "Tuesday"])
/// let subscription = days.didChangeElements { changes, days in
///     print(changes)                     // -[] +[0] ↕[] ~[]
/// }
/// days.insert("Sunday", at: 0)
/// ```
///
/// The elements need not be `Identifiable` or `Equatable`: the array gives each element a
/// hidden identity when it is inserted and keeps it through moves and updates, so changes are
/// exact even for equal elements. Edits made in one ``edit(_:)`` or in one `batch` reach a
/// handler as one ``ListChanges``. Inside a reaction each edit is queued on its own, as every
/// write made there is, and reaches it as a change of its own: make several in one ``edit(_:)``
/// or `batch` to report them together.
///
/// Every index is checked: one out of range stops the program with a message that names the
/// call, the index and the valid range.
///
/// Edits from many threads are atomic: each applies to the array the previous one left. What
/// ``willChange(_:)`` handlers are told is the edit that is applied: while there are any, an
/// edit holds the array from its preview to its write, and other threads' edits wait.
public final class ObservableArray<Element: Sendable>: ObservableValue, Sendable {
    private let storage: Stored<_ArrayStorage<Element>>
    private let willChangeHandlers = _HandlerList<(old: [Element], new: [Element])>()
    /// The threads calling before-change handlers, which must not edit the array.
    private let previewing = _CallingThreads()
    /// The array's name in failure messages.
    private let label: String

    /// Creates an array holding `elements`.
    ///
    /// - Parameters:
    ///   - elements: The initial elements.
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public init(_ elements: [Element] = [], name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        storage = Stored(_ArrayStorage(elements), name: name, file: file, line: line)
        label = name.map { "ObservableArray \"\($0)\"" } ?? "the ObservableArray created at \(file):\(line)"
    }

    /// The elements. Reading them inside a derivation or reaction tracks the array;
    /// assigning replaces every element as `ArrayEdit.replaceAll(with:)` does for the
    /// elements' type: `Identifiable` elements are matched by `id` (and `Equatable` ones
    /// reported updated only when they differ); other `Equatable` elements are matched in
    /// order by the shortest edit script, so a mutating call on the value that inserts,
    /// removes or replaces elements (`numbers.value.append(4)`, `numbers.value[1] = 9`)
    /// reports only what it changed, as the same call through ``edit(_:)`` does (an element
    /// replaced in its place is an update), but a move (`swapAt`) is reported as removals and
    /// insertions of a shortest edit script, which may take in elements between the two;
    /// elements that are neither are all removed and inserted (use the methods or ``edit(_:)``
    /// for exact changes).
    ///
    /// - Complexity: Reading is O(1). Assigning `Equatable` elements costs
    ///   O((*n* + *m*) · *d*), *d* the elements removed and inserted.
    public var value: [Element] {
        get { storage.value.elements }
        set { edit { $0._replaceAllByType(with: newValue) } }
        // A mutating call (`numbers.value.append(4)`) is one atomic read-modify-write, as on a
        // `Stored`: the array's other writers wait from the read to the write, so concurrent
        // calls from many threads lose nothing.
        _modify {
            let access = _beginExclusiveAccess()
            defer { _endExclusiveAccess(access) }
            var copy = storage.value.elements
            yield &copy
            edit { [copy] in $0._replaceAllByType(with: copy) }
        }
    }

    /// The number of elements (tracked).
    public var count: Int { storage.value.elements.count }

    /// The element at `index` (tracked); assigning it reports an update of that element.
    public subscript(index: Int) -> Element {
        get {
            let elements = value
            guard elements.indices.contains(index) else {
                _bindingsFailure("ObservableArray subscript: index \(index) is out of range 0..<\(elements.count).")
            }
            return elements[index]
        }
        set { edit { $0[index] = newValue } }
    }

    /// Applies `body`'s edits as one change: handlers get one ``ListChanges`` for all of them.
    ///
    /// While the array has before-change handlers (``willChange(_:)``), the edit is exclusive:
    /// `body` runs once, the handlers are told the elements before and after it, and the
    /// result is applied before any other thread's edit of the array, which waits (readers
    /// don't). Without them, `body` may run again when another thread's edit lands while it
    /// runs: it should only edit.
    ///
    /// - Complexity: O(*n*) for the copy of the array, plus each edit's own cost.
    public func edit(_ body: @escaping (inout ArrayEdit<Element>) -> Void) {
        let storage = self.storage
        if previewing.isHeldByCallingThread {
            _bindingsFailure(
                "ObservableArray.edit: \(label) was edited from inside one of its willChange handlers, before the edit it was told about is applied. Edit it after the change (in didChangeElements, or a reaction)."
            )
        }
        guard !willChangeHandlers.isEmpty else {
            storage.update { current in
                var edit = ArrayEdit(current)
                body(&edit)
                current = edit.storage
            }
            return
        }
        let (handlers, previewing) = (willChangeHandlers, self.previewing)
        _exclusiveReadModifyWrite(
            read: { untracked { storage.value } },
            transform: { current in
                var edit = ArrayEdit(current)
                body(&edit)
                previewing.enter()
                handlers.call((current.elements, edit.elements))
                previewing.leave()
                current = edit.storage
            },
            write: { storage.value = $0 }
        )
    }

    /// Adds `element` at the end.
    public func append(_ element: Element) { edit { $0.append(element) } }

    /// Adds `elements` at the end.
    public func append(contentsOf elements: [Element]) { edit { $0.append(contentsOf: elements) } }

    /// Inserts `element` at `index`.
    public func insert(_ element: Element, at index: Int) { edit { $0.insert(element, at: index) } }

    /// Removes the element at `index`.
    public func remove(at index: Int) { edit { $0.remove(at: index) } }

    /// Removes the elements that satisfy `shouldBeRemoved`.
    public func removeAll(where shouldBeRemoved: @escaping @Sendable (Element) -> Bool) {
        edit { $0.removeAll(where: shouldBeRemoved) }
    }

    /// Removes every element.
    public func removeAll() { edit { $0.removeAll() } }

    /// Moves the element at `source` so that it ends at `destination`.
    public func move(from source: Int, to destination: Int) { edit { $0.move(from: source, to: destination) } }

    /// Calls `handler` with what changed and the new elements after every change: once per
    /// ``edit(_:)`` or `batch`, whatever the number of edits in it (inside a reaction, once per
    /// edit made outside both).
    ///
    /// ```swift
    /// let subscription = rows.didChangeElements { changes, rows in
    ///     tableView.performBatchUpdates { apply(changes) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - withCurrent: Also call `handler` at once, with every element reported inserted.
    ///   - handler: Called with the changes and the elements after them. It runs untracked,
    ///     after the graph's lock is released, like every handler.
    /// - Returns: A subscription that stops the handler when cancelled or released.
    /// - Complexity: Each change costs one diff by identity: O(*n* + *k* log *k*).
    public func didChangeElements(
        withCurrent: Bool = false,
        _ handler: @escaping @Sendable (_ changes: ListChanges, _ elements: [Element]) -> Void
    ) -> Subscription {
        let storage = self.storage
        return _observeListChanges(
            read: { storage.value },
            changes: { $1.changes(since: $0) },
            count: { $0.elements.count },
            elements: { $0.elements },
            withCurrent: withCurrent,
            handler
        )
    }

    /// Calls `handler` with the elements before and after each edit, before it is applied:
    /// on the editing thread, while the graph still shows the old elements (Fisticuffs'
    /// `.beforeChange` subscriptions).
    ///
    /// What it is told is exactly what happens, even while other threads edit the array: `old`
    /// is the array the edit applies to, and `new` is the array it leaves, applied before any
    /// other edit (an edit of an array with before-change handlers holds it from its preview
    /// to its write; other threads' edits of it wait, its readers don't). Inside a `batch`, the
    /// array is held until the batch is applied. The handler must not edit the array itself:
    /// that stops the program with a message.
    ///
    /// - Returns: A subscription that removes the handler when cancelled or released.
    public func willChange(_ handler: @escaping @Sendable (_ old: [Element], _ new: [Element]) -> Void) -> Subscription
    {
        willChangeHandlers.add { handler($0.old, $0.new) }
    }

    /// A two-way binding to the elements; a write through it replaces every element.
    public var binding: ValueBinding<[Element]> {
        ValueBinding(get: { self.value }, set: { self.value = $0 })
    }
}

/// The threads inside some section (an observable array's before-change handlers), so that a
/// thread can tell it is inside one; almost always empty or one thread.
final class _CallingThreads: @unchecked Sendable {
    private let lock = _Lock()
    private var threads: [UInt] = []

    func enter() {
        let me = _Lock.currentThread
        lock.withLock { threads.append(me) }
    }

    func leave() {
        let me = _Lock.currentThread
        lock.withLock {
            if let index = threads.lastIndex(of: me) { threads.remove(at: index) }
        }
    }

    /// Whether the calling thread is inside the section.
    var isHeldByCallingThread: Bool {
        let me = _Lock.currentThread
        return lock.withLock { threads.contains(me) }
    }
}

/// A value behind a lock, for a reaction's memory between runs.
final class _Box<Value>: @unchecked Sendable {
    private let lock = _Lock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.withLock { body(&stored) }
    }

    func exchange(_ new: Value) -> Value {
        lock.withLock {
            defer { stored = new }
            return stored
        }
    }
}
