import Observation

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
/// A `Stored` may be read and written from any thread. Writes made inside a reaction are
/// queued and committed after the reactions of the current round, so every reaction sees
/// every committed value in order.
///
/// - Complexity: Reading is O(1). A write is O(*n*) in the number of live nodes downstream
///   that are not already marked.
public final class Stored<Value>: _Node, Readable {
    @usableFromInline @exclusivity(unchecked) var _value: Value
    @usableFromInline let _isEqual: ((Value, Value) -> Bool)?
    // Observation interop: armed by a read no Ripple reader tracked.
    @exclusivity(unchecked) private var observationArmed = false
    /// Writes so far, equal ones included.
    @exclusivity(unchecked) private var writes = 0
    /// Publishes `writes` to readers of ``writeCount``; created by the first such read.
    @exclusivity(unchecked) private var writeCounter: Stored<Int>?
    /// Created by the first untracked read; retained by hand (released in `deinit`) so that
    /// later top-level reads reach it without reference counting.
    @exclusivity(unchecked) private var observationRef: Unmanaged<_ObservationSubject>?
    /// Threads whose batch staged a write of this value, not yet applied (see `_Staging`).
    @usableFromInline @exclusivity(unchecked) var _stagedCount = 0
    /// The batch whose staged value this node holds (others keep theirs apart), the value,
    /// and the writes it stands for.
    @exclusivity(unchecked) var _stagedOwner: Unmanaged<_Staging>?
    @usableFromInline @exclusivity(unchecked) var _stagedValue: Value?
    @exclusivity(unchecked) var _stagedWrites = 0

    /// Creates a stored value that notifies on every write, or only when `isEqual` says the
    /// new value differs.
    ///
    /// - Parameters:
    ///   - value: The initial value.
    ///   - name: A name used in diagnostics (cycle and runaway messages).
    ///   - isEqual: An equality that suppresses writes of an equal value, or `nil` to notify
    ///     always. It is called while the writing thread holds the graph, so it must only
    ///     compare: no reads or writes of Ripple values, no blocking.
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
    init(_ value: Value, name: String?, comparingWith isEqual: ((Value, Value) -> Bool)?, file: StaticString, line: UInt) {
        _value = value
        _isEqual = isEqual
        super.init(kind: .stored, origin: _Origin(name: name, fileID: file, line: line))
        version = _graph.withLock { _graph.makeID() }
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
            _lockForRead()
            if _stagedCount != 0 { return _readStaged() }
            let current = _value
            if _trackAndUnlock() { return current }
            _untrackedRead()
            return current
        }
        // Inlinable, so that the parts of a write that handle `Value` (the equality check and
        // the copies) are compiled for the concrete type in the client; the graph's part is in
        // non-generic helpers.
        @inlinable
        set {
            let context = _ThreadContext.currentRef
            if context._withUnsafeGuaranteedRef({ $0.isDelivering }) {
                // Applied inside a batch (a delivery round or the enclosing batch): staged.
                _queueWrite(context) { [self] in self._stage(newValue, context) }
                return
            }
            if context._withUnsafeGuaranteedRef({ $0.batchDepth > 0 }) {
                _stage(newValue, context)
                return
            }
            _write(newValue, context)
            _deliver(context)
        }
    }

    /// Changes the value in place with `transform` and propagates the result.
    ///
    /// Inside a reaction the transform is queued with the write, so it applies to the value
    /// committed before it: `count.update { $0 += 1 }` twice in one reaction adds two.
    ///
    /// ```swift
    /// items.update { $0.append(newItem) }
    /// ```
    public func update(_ transform: @escaping (inout Value) -> Void) {
        writeInOrder { [self] in
            var copy = peek()
            transform(&copy)
            value = copy
        }
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
        let (counter, staged) = graphRef._withUnsafeGuaranteedRef { graph in
            graph.withLock { () -> (Stored<Int>, Int) in
                // Inside a batch, its writes not yet applied count too.
                let staged = _stagedWriteCount()
                if let writeCounter { return (writeCounter, staged) }
                let created = Stored<Int>(writes, name: nil, comparingWith: nil, file: #fileID, line: #line)
                writeCounter = created
                return (created, staged)
            }
        }
        return counter.value + staged
    }

    /// The value, read without tracking or Observation registration (inside a batch, as the
    /// batch sees it).
    func peek() -> Value {
        _graph.withLock { _valueInView() }
    }

    /// Commits a write: equality check, version, propagation. Reactions are only queued.
    @inlinable
    func _write(_ newValue: Value, _ context: Unmanaged<_ThreadContext>) {
        _lockForWrite(context)
        if let _isEqual, _isEqual(_value, newValue) {
            _unlockAfterWrite()
            return
        }
        _stampVersion()
        _value = newValue
        _commitWrite(context)
    }

    /// Takes the lock for a write, stops a write made by a derivation, and counts the write.
    @usableFromInline
    func _lockForWrite(_ context: Unmanaged<_ThreadContext>) {
        graphRef._withUnsafeGuaranteedRef { graph in
            graph.lock.lock()
            // Checked through the raw reference: this is on every write's path.
            if graph.evaluatingRef != nil, let evaluating = graph.evaluating {
                graph.unlock()
                _rippleFailure("\(debugLabel) was written while \(evaluating.debugLabel) was being evaluated. A computed value must not write; use a reaction (observe) instead.")
            }
            writes &+= 1
            if let writeCounter { writeCounter._write(writes, context) }
        }
    }

    /// Releases the lock after a write that changed nothing.
    @usableFromInline
    func _unlockAfterWrite() {
        graphRef._withUnsafeGuaranteedRef { $0.unlock() }
    }

    /// Gives the value being written a new version (lock held). (A batch's writes are applied
    /// once each, when it ends, so a value changed and changed back inside a batch is never
    /// written: see `_Staging`.)
    @usableFromInline
    func _stampVersion() {
        graphRef._withUnsafeGuaranteedRef { graph in version = graph.makeID() }
    }

    /// Propagates a committed write, queues the Observation notice, and releases the lock.
    @usableFromInline
    func _commitWrite(_ context: Unmanaged<_ThreadContext>) {
        graphRef._withUnsafeGuaranteedRef { graph in
            context._withUnsafeGuaranteedRef { context in
                graph.epoch &+= 1
                graph.propagate(from: self, into: context)
                if observationArmed {
                    observationArmed = false
                    context.pending.append(.notify(self))
                }
            }
            graph.unlock()
        }
    }

    /// Queues a write made while reactions are being delivered.
    @usableFromInline
    func _queueWrite(_ context: Unmanaged<_ThreadContext>, _ apply: @escaping () -> Void) {
        graphRef._withUnsafeGuaranteedRef { graph in
            context._withUnsafeGuaranteedRef { graph.queueWrite($0, apply) }
        }
    }

    /// Runs the reactions a write queued (unless a batch or a delivery is in progress).
    @usableFromInline
    func _deliver(_ context: Unmanaged<_ThreadContext>) {
        graphRef._withUnsafeGuaranteedRef { graph in
            context._withUnsafeGuaranteedRef { graph.deliver($0) }
        }
    }

    /// The subject to tell of a change (queued by a write that found Observation armed).
    override func _changedObservationSubject() -> Unmanaged<_ObservationSubject>? {
        observationRef
    }

    /// A read that no derivation or reaction tracked (lock held): arms Observation, releases
    /// the lock, and registers the access.
    @usableFromInline
    func _untrackedRead() {
        armObservation()._withUnsafeGuaranteedRef { subject in
            graphRef._withUnsafeGuaranteedRef { $0.unlock() }
            subject.access()
        }
    }

    /// Called under the lock by an untracked read: the next change is reported to Observation.
    /// Returns the subject, which this node keeps alive.
    private func armObservation() -> Unmanaged<_ObservationSubject> {
        observationArmed = true
        if let observationRef { return observationRef }
        let created = Unmanaged.passRetained(_ObservationSubject())
        observationRef = created
        return created
    }

    deinit {
        observationRef?.release()
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
