import Observation
import _RippleRef

/// A stored reactive value: the source of every change in a Ripple graph.
///
/// Assigning ``value`` updates everything that depends on it: ``Computed`` values are
/// marked and recompute lazily, reactions run once after the write (or once after the
/// outermost ``batch(_:)``). Writing a value equal to the current one changes nothing
/// and notifies nobody; for types that are not `Equatable`, every write notifies unless
/// you pass an equality.
///
/// ```swift
/// let isLoggedIn = Stored(false)
/// let subscription = observe { print("logged in:", isLoggedIn.value) }  // prints "false"
/// isLoggedIn.value = true                                                // prints "true"
/// isLoggedIn.value = true                                                // equal: prints nothing
/// ```
///
/// A value changed in place (a class instance, a mutated buffer) tells its readers with
/// ``trigger()``, a write that keeps the value and skips the equality check.
///
/// ``willChange(_:)`` handlers are told of each change before it is made, on the writing
/// thread, while readers still see the old value.
///
/// A `Stored` may be read and written from any thread. Writes made inside a reaction are
/// queued and committed after the reactions of the current round, so every reaction sees
/// every committed value in order.
///
/// - Complexity: Reading is O(1). A write is O(*n*) in the number of live nodes downstream
///   that are not already marked.
public final class Stored<Value>: _StoredNode<Value>, Readable {
    // The value, its write count and its extras are `_StoredNode`'s (`Graph/_Node.swift`, with
    // the other nodes' hot fields); the fields here come after them.

    @usableFromInline let _isEqual: ((Value, Value) -> Bool)?
    /// Where the value was created, or its name (last: see `_Node.origin`).
    let storedOrigin: _OriginStorage

    /// Creates a stored value that notifies on every write, or only when `isEqual` says the
    /// new value differs.
    ///
    /// - Parameters:
    ///   - value: The initial value.
    ///   - name: A name used in diagnostics (cycle and runaway messages).
    ///   - isEqual: An equality that suppresses writes of an equal value, or `nil` to notify
    ///     always. It is called while the writing thread holds the graph, so it must only
    ///     compare: no reads or writes of Ripple values, no blocking. A write made from inside
    ///     it stops the program with a message naming both values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init(
        _ value: Value,
        name: String? = nil,
        equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(value, name: name, comparingWith: isEqual, file: file, line: line)
    }

    @usableFromInline
    init(
        _ value: Value, name: String?, comparingWith isEqual: ((Value, Value) -> Bool)?, file: StaticString, line: UInt
    ) {
        _isEqual = isEqual
        storedOrigin = _OriginStorage(_Origin(name: name, fileID: file, line: line))
        super.init(value)
        _graph.withLock { held in held[version: self] = _graph.makeID(held) }
    }

    /// A stored value without a name, that may be given one once, later (see `_giveName(_:)`).
    init(
        _ value: Value, nameableLaterComparingWith isEqual: ((Value, Value) -> Bool)?, file: StaticString, line: UInt
    ) {
        _isEqual = isEqual
        storedOrigin = _OriginStorage(nameableLater: _Origin(name: nil, fileID: file, line: line))
        super.init(value)
        _graph.withLock { held in held[version: self] = _graph.makeID(held) }
    }

    /// Creates a stored value of a type that is not `Equatable`: every write notifies.
    ///
    /// - Parameters:
    ///   - value: The initial value.
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    public convenience init(_ value: Value, name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        self.init(value, name: name, equals: nil, file: file, line: line)
    }

    /// The current value. Reading it inside a derivation or reaction tracks it; assigning it
    /// propagates the change.
    public var value: Value {
        @inlinable
        get {
            // The common case first, through functions that release nothing (see
            // `_Graph+FastRead.swift`): code that reads handles out of an array retains none.
            switch _beginStoredRead() {
            case .trackedInDerivation:
                return _value
            // The cases that hold the lock hand its acquisition to the read's end.
            case .tracked:
                let current = _value
                _endTrackedRead(copying: Value.self, _HeldLock())
                return current
            case .untracked:
                let current = _value
                _untrackedRead(_HeldLock())
                return current
            case .general:
                return _generalRead(_HeldLock())
            }
        }
        // Inlinable, so that the parts of a write that handle `Value` (the equality check and
        // the copies) are compiled for the concrete type in the client; the graph's part is in
        // non-generic helpers.
        @inlinable
        set {
            let context = _ThreadContext.currentRef
            switch context.with({ $0.writes.route }) {
            case .queue:
                // Applied inside a batch (a delivery round or the enclosing batch): staged.
                _queueWrite(context) { [self] in self._stage(newValue, context) }
            case .stage:
                _stage(newValue, context)
            case .apply:
                _writeAndDeliver(consume newValue, context)
            }
        }
        // A compound assignment (`count.value += 1`, `items.value.append(x)`) is one atomic
        // read-modify-write: see `Stored+ReadModifyWrite.swift`.
        _modify {
            let access = _beginExclusiveAccess()
            defer { _endExclusiveAccess(access) }
            var copy = value
            yield &copy
            value = copy
        }
    }

    /// A read the fast path (`_beginStoredRead`) left to the graph, under `held`, which it
    /// releases: a value some batch staged, a read inside a read-modify-write region, a read
    /// that adds or replaces an edge, or the first read on a thread. Not inlined, so that code
    /// reading in a loop stays small; inlinable, so that it is compiled for `Value`.
    @inlinable @inline(never)
    func _generalRead(_ held: consuming _HeldLock) -> Value {
        // A read in the batch's view sees the batch's sole write (see `_SoleWrite`).
        graphRef.with { $0._stageSoleWriteOfCallingThread(held) }
        // Inside a read-modify-write region, the region's first read of a stored value also
        // records it (see `Stored+ReadModifyWrite.swift`).
        if graphRef.with({ $0.readModifyWriteRegions }) != 0 { _noteReadInRegion(held) }
        if _stagedCount != 0 { return _readStaged(held) }
        let current = _value
        if _trackRead(held) {
            _endGeneralRead(held)
            return current
        }
        _untrackedRead(held)
        return current
    }

    /// Changes the value in place with `transform` and propagates the result, atomically with
    /// respect to every other writer.
    ///
    /// `transform` runs with no lock held, on a copy of the current value; the result is
    /// committed only if no other write reached this value in the meantime, otherwise
    /// `transform` runs again on the newer value. So eight threads each calling
    /// `count.update { $0 += 1 }` 1 000 times always end 8 000 higher. `transform` should
    /// therefore only compute the new value: it may run more than once under contention.
    ///
    /// Inside a reaction the transform is queued with the write, so it applies to the value
    /// committed before it: `count.update { $0 += 1 }` twice in one reaction adds two. Inside a
    /// ``batch(_:)``, whose writes are applied when it ends, the transform runs once on the
    /// batch's view, and the value is held for the batch until then: other threads' writes of
    /// it wait for the batch.
    ///
    /// ```swift
    /// items.update { $0.append(newItem) }
    /// ```
    ///
    /// - Complexity: One read and one write, plus one more of each per concurrent write that
    ///   lands while `transform` runs.
    public func update(_ transform: @escaping (inout Value) -> Void) {
        _readModifyWrite(read: { [self] in untracked { value } }, transform: transform, write: { [self] in value = $0 })
    }

    /// The number of writes made to this value so far, equal writes included.
    ///
    /// Reading it inside a derivation or a reaction tracks *every* write, even one that
    /// leaves the value unchanged (which ``value`` does not report); update handlers that
    /// must hear equal writes read it. Inside a ``batch(_:)``, on its thread, it counts the
    /// batch's writes too.
    ///
    /// ```swift
    /// let name = Stored("Ada")
    /// let writes = observe { print("written", name.writeCount, "times") }
    /// name.value = "Ada"                                   // prints "written 1 times"
    /// ```
    ///
    /// - Complexity: O(1). Until it is first read, counting costs one increment per write.
    public var writeCount: Int {
        let (counter, staged) = graphRef.with { graph in
            graph.withLock { held -> (Stored<Int>, Int) in
                // Inside a batch, its writes not yet applied count too.
                let staged = _stagedWriteCount(held)
                if let writeCounter = _extras?.with({ held[writeCounter: $0] }) { return (writeCounter, staged) }
                let created = Stored<Int>(held[writes: self], name: nil, comparingWith: nil, file: #fileID, line: #line)
                held[writeCounter: extras(held)] = created
                return (created, staged)
            }
        }
        let count = counter.value
        // Read in the batch's view by a reaction: its edge to the counter records the version
        // the counter gets once the staged writes are counted, so that counting them does not
        // run it again for the count it saw (see `_StagedRead.countVersion`).
        if staged != 0 {
            graphRef.with { graph in graph.withLock { held in _reserveCountVersion(of: counter, graph, held) } }
        }
        return count + staged
    }

    /// An unbatched write, from this thread outside any delivery and any batch: commits it,
    /// runs its reactions, then delivers the writes they queued. Also a batch of one write
    /// (`_ThreadContext.commitSoleWriteAsWrite`).
    @inlinable
    func _writeAndDeliver(_ newValue: consuming Value, _ context: _Ref<_ThreadContext>) {
        let replaced = _write(consume newValue, context, runningJobs: true)
        _deliver(context)
        // The replaced value is released only now, with the lock released and this write's
        // reactions delivered: its deinitializer may block, read or write like any user code.
        withExtendedLifetime(replaced) {}
    }

    /// Commits a write: equality check, before-change handlers (the lock released while they
    /// run), version, propagation. Reactions are only queued, unless
    /// `runningJobs`: then, on a thread that is not delivering and outside any batch, the
    /// reactions it queued run before the lock is released, under the same acquisition (the
    /// caller's delivery then finds them done and goes on to any writes they queued).
    ///
    /// Returns the value it replaced, for the caller to release once the lock is released
    /// (`nil` when nothing was written).
    @inlinable
    func _write(_ newValue: consuming Value, _ context: _Ref<_ThreadContext>, runningJobs: Bool = false) -> Value? {
        // Nil: the write belongs to a read-modify-write that another writer overtook.
        guard let acquired = _lockForWrite(context) else { return nil }
        if _isEqual?(_value, newValue) == true {
            _unlockAfterWrite(acquired)
            return nil
        }
        // Before-change handlers (`willChange`), called with the lock released meanwhile: they
        // consume the acquisition and return the one taken after them. (Not a `var` lent
        // `inout`: a token whose address is taken costs a write extra instructions.)
        let held: _HeldLock
        if _hasWillChangeHandlers {
            held = _callWillChangeHandlers(newValue, context, acquired)
        } else {
            held = acquired
        }
        _stampVersion(held)
        var replaced = consume newValue
        swap(&_value, &replaced)
        if graphRef.with({ $0.tracingCount != 0 }) {
            _recordWrite(old: replaced, new: _value, context, held)
        }
        _commitWrite(context, held, runningJobs: runningJobs)
        return replaced
    }

    override func _traceValue(_ held: borrowing _HeldLock) -> Any? { _value }

    override func _origin() -> _Origin { storedOrigin.origin }

    /// The subject to tell of a change (queued by every write once a read in an Observation scope armed it).
    override func _changedObservationSubject(_ held: borrowing _HeldLock) -> _Ref<_ObservationSubject>? {
        _extras?.with { held[observationRef: $0] }
    }

    deinit {
        _forgetWillChangeHandlers()
        _extras?.release()
    }
}

// MARK: - The write's graph half

// The non-generic steps of `_write` (above): take the lock, stamp the version, propagate and
// hand the acquisition to the job loop. Together with the setter they are the whole write, in
// this file; the walk continues in `_Graph+PushPull.swift` and `_Graph+Delivery.swift`.
extension Stored {
    /// Takes the lock for a write, stops a write made by a derivation, waits for another
    /// thread's read-modify-write of this value to end, and counts the write. Returns the
    /// acquisition, for `_commitWrite`, `_unlockAfterWrite` or
    /// `_markReadersOfReplacedStagedValue` to release; `nil`, with nothing held and nothing
    /// counted, for the write of a read-modify-write that another write overtook (the caller
    /// retries it).
    @usableFromInline @inline(never)
    func _lockForWrite(_ context: _Ref<_ThreadContext>) -> _HeldLock? {
        // Handed out through a variable: a closure's result must be copyable.
        var taken: _HeldLock? = nil
        graphRef.with { graph in
            // Never inlined and synchronous: the thread's identity may be read in place.
            var held = graph.takeLock(as: _Lock.threadOfNonInlinedSynchronousCaller)
            graph.refuseWrite(to: self, on: nil, held)
            if _exclusiveOwner(held) != nil || graph.readModifyWriteRegions != 0 {
                guard let admitted = _admitWrite(graph, context, held) else { return }
                held = admitted
            }
            held[writes: self] &+= 1
            if let extras = _extras, let writeCounter = extras.with({ held[writeCounter: $0] }) {
                _ = writeCounter._write(held[writes: self], context)
            }
            // The equality check runs next: a write from inside it fails (see `comparingRef`).
            graph.state(held).comparingRef = .init(self)
            taken = consume held
        }
        return taken
    }

    /// The thread (its context) inside a compound assignment to this value, which other
    /// writers wait for; `nil` when none. Kept in the extras: most values never have one.
    func _exclusiveOwner(_ held: borrowing _HeldLock) -> _Ref<_ThreadContext>? {
        _extras?.with { held[exclusiveOwner: $0] } ?? nil
    }

    /// Releases the lock after a write that changed nothing.
    @usableFromInline
    func _unlockAfterWrite(_ held: consuming _HeldLock) {
        graphRef.with { $0.state(held).comparingRef = nil }
        held.release(graphRef)
    }

    /// Gives the value being written a new version. (A batch's writes are applied
    /// once each, when it ends, so a value changed and changed back inside a batch is never
    /// written: see `_Staging`.)
    @usableFromInline
    func _stampVersion(_ held: borrowing _HeldLock) {
        graphRef.with { graph in
            if graph.state(held).snapshots.runningThreads != 0 { _keepReplacedValue(graph, held) }
            held[version: self] = graph.makeID(held)
        }
    }

    /// Keeps the value about to be replaced for the reaction runs in progress on other threads,
    /// until the write has propagated (see `_RunSnapshots`).
    @inline(never)
    func _keepReplacedValue(_ graph: _Graph, _ held: borrowing _HeldLock) {
        graph.keepReplacedValue(of: self, { _value }, version: held[version: self], held)
    }

    /// Propagates a committed write, queues the Observation notice, and releases `held`.
    ///
    /// `runningJobs` (an unbatched write, see `_write`): the jobs the write queued run first,
    /// holding the lock from the commit to the first reaction, as a batch's commit does, so
    /// that a write and its reactions cost one acquisition, not two.
    @usableFromInline
    func _commitWrite(_ context: _Ref<_ThreadContext>, _ held: consuming _HeldLock, runningJobs: Bool = false) {
        // Through a variable: a closure cannot consume what it captures.
        var held = Optional(held)
        graphRef.with { graph in
            context.with { context in
                graph.state(held!).comparingRef = nil
                graph.state(held!).epoch &+= 1
                graph.propagate(from: self, into: context, held!)
                if _extras != nil, _isArmedForObservation(held!) {
                    context.jobs.append(.notify(self))
                }
                if runningJobs {
                    graph.unlockRunningQueuedJobs(context, held.take()!)
                } else {
                    held.take()!.release(graph)
                }
            }
        }
    }

    /// Whether an Observation scope armed this value (see `armObservation`): its changes are
    /// told to Observation.
    @inline(__always)
    private func _isArmedForObservation(_ held: borrowing _HeldLock) -> Bool {
        _extras?.with { held[observationRef: $0] != nil } ?? false
    }

    /// Queues a write made while reactions are being delivered.
    @usableFromInline
    func _queueWrite(_ context: _Ref<_ThreadContext>, _ apply: @escaping () -> Void) {
        graphRef.with { graph in
            context.with { graph.queueWrite($0, apply) }
        }
    }

    /// Runs the reactions a write queued (unless a batch or a delivery is in progress).
    @usableFromInline
    func _deliver(_ context: _Ref<_ThreadContext>) {
        graphRef.with { graph in
            context.with { graph.deliver($0) }
        }
    }
}

extension Stored where Value: Equatable {
    /// Creates a stored value that ignores writes of an equal value.
    ///
    /// ```swift
    /// let count = Stored(0)
    /// count.value = 0   // equal: nothing runs
    /// ```
    ///
    /// - Parameters:
    ///   - value: The initial value.
    ///   - name: A name used in diagnostics.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    @inlinable
    public convenience init(_ value: Value, name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        // Inlinable: the equality is compiled for the concrete type in the client.
        self.init(value, name: name, comparingWith: { $0 == $1 }, file: file, line: line)
    }
}

extension Stored: @unchecked Sendable where Value: Sendable {}

extension Stored: Observable {}

extension Stored: CustomStringConvertible {
    /// The value and where the node was created.
    public var description: String {
        "Stored\(origin)(\(peek()))"
    }
}
