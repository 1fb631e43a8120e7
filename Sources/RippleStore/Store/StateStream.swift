import Ripple

/// A store's state over time, as an asynchronous sequence: the current value, then each new
/// one. Project a part with a key path (`store.states.number`): that stream emits the part's
/// current value and then only when the part changed.
///
/// ```swift
/// for await number in store.states.number {
///     print(number)          // 0, then once per change of `number`
/// }
/// ```
///
/// Each access (`store.states`, `store.states.number`) subscribes at once, so its iteration sees
/// every change made after the access, even one made before the iteration starts; the sequence
/// ends when the store is released. Every value is buffered, so a slow iteration still sees each
/// change, in order. A stream that is dropped without being iterated unsubscribes.
///
/// **Iterated more than once.** Every iterator made from one value of the sequence gets every
/// value since the access, then the later ones: while the sequence value is alive, it keeps
/// the values it delivered for the iterators still to come (Verge's and `AsyncStream`'s users
/// expect a sequence to be iterable again). Iterate a fresh access (`store.states`) rather than
/// keeping one sequence value for a long time.
///
/// - Complexity: Each value is buffered once per live iterator, and once more while the
///   sequence value is alive.
@dynamicMemberLookup
public struct StateStream<Value: Sendable>: AsyncSequence, Sendable {
    /// A state, or a part of one.
    public typealias Element = Value

    let source: any _StateStreamSource<Value>
    let replay: _StateStreamReplay<Value>

    init(source: any _StateStreamSource<Value>) {
        self.source = source
        let hub = _StateStreamHub<Value>()
        hub.start(source)
        replay = _StateStreamReplay(hub: hub)
    }

    /// Iterates a ``StateStream``; it keeps the stream's subscription alive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Value>.Iterator
        let owner: _StateStreamReader<Value>

        /// The next value, or `nil` once the store is released.
        public mutating func next() async -> Value? {
            await base.next()
        }
    }

    /// An iterator over every value since the access (the current value at that time, then
    /// each change), then the later ones.
    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, reader) = replay.hub.makeReader()
        return AsyncIterator(base: stream.makeAsyncIterator(), owner: reader)
    }

    /// The stream of the value at `keyPath`, which emits only when that value changed.
    ///
    /// - Complexity: Each change of the state compares the value at `keyPath` once, for all
    ///   the streams and readers of that key path.
    public subscript<Member: Equatable & Sendable>(dynamicMember keyPath: KeyPath<Value, Member>) -> StateStream<Member>
    {
        StateStream<Member>(source: source.scoped(_KeyPath(keyPath: keyPath)))
    }
}

/// What one ``StateStream`` value holds: the stream's hub, which keeps every value for the
/// iterators still to come while this lives.
final class _StateStreamReplay<Value: Sendable>: Sendable {
    let hub: _StateStreamHub<Value>

    init(hub: _StateStreamHub<Value>) {
        self.hub = hub
    }

    deinit {
        hub.stopKeeping()
    }
}

/// What one iterator holds: its feed from the hub, removed when the iterator is dropped.
final class _StateStreamReader<Value: Sendable>: Sendable {
    let hub: _StateStreamHub<Value>
    let id: Int

    init(hub: _StateStreamHub<Value>, id: Int) {
        self.hub = hub
        self.id = id
    }

    deinit {
        hub.remove(id)
    }
}

/// One subscription to a store, fanned out to the iterators of one ``StateStream`` value, each
/// with its own buffer. It keeps the values delivered so far while the sequence value is alive
/// (``_StateStreamReplay``), for iterators made later; the subscription ends when neither the
/// sequence value nor any iterator holds the hub.
final class _StateStreamHub<Value: Sendable>: @unchecked Sendable {
    private let lock = _Lock()
    // Guarded by `lock`:
    /// Every value delivered so far, while the sequence value is alive (`nil` after).
    private var kept: [Value]? = []
    private var readers: [Int: AsyncStream<Value>.Continuation] = [:]
    private var nextID = 0
    private var isFinished = false
    private var subscription: Subscription?

    /// Subscribes to `source` (its current value is delivered at once).
    func start(_ source: any _StateStreamSource<Value>) {
        let made = source.subscribe(
            receive: { [weak self] value in self?.receive(value) },
            finish: { [weak self] in self?.finish() }
        )
        let extra = lock.withLock { () -> Subscription? in
            if isFinished { return made }
            subscription = made
            return nil
        }
        extra?.cancel()
    }

    /// A new iterator's stream: it holds every value kept so far, then gets the later ones.
    func makeReader() -> (AsyncStream<Value>, _StateStreamReader<Value>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let (id, finished) = lock.withLock { () -> (Int, Bool) in
            nextID += 1
            // Under the lock, so that no value is delivered between the kept ones and the
            // reader's registration (a yield calls no user code).
            for value in kept ?? [] { continuation.yield(value) }
            if !isFinished { readers[nextID] = continuation }
            return (nextID, isFinished)
        }
        if finished { continuation.finish() }
        return (stream, _StateStreamReader(hub: self, id: id))
    }

    private func receive(_ value: Value) {
        lock.withLock {
            // Under the lock, so that a reader being added sees each value once, in order.
            kept?.append(value)
            for continuation in readers.values { continuation.yield(value) }
        }
    }

    private func finish() {
        let finished = lock.withLock { () -> [AsyncStream<Value>.Continuation] in
            isFinished = true
            defer { readers = [:] }
            return Array(readers.values)
        }
        for continuation in finished { continuation.finish() }
    }

    /// The sequence value was released: no iterator will be made any more.
    func stopKeeping() {
        lock.withLock { kept = nil }
    }

    /// An iterator was released.
    func remove(_ id: Int) {
        let removed = lock.withLock { readers.removeValue(forKey: id) }
        removed?.finish()
    }

    deinit {
        subscription?.cancel()
    }
}

/// Where a ``StateStream`` comes from: a store's whole state or a key path into it.
protocol _StateStreamSource<Value>: Sendable {
    associatedtype Value: Sendable
    /// Subscribes: `receive` gets the current value at once, then each change, one at a time,
    /// in order; `finish` runs when the store is released.
    func subscribe(receive: @escaping @Sendable (Value) -> Void, finish: @escaping @Sendable () -> Void) -> Subscription
    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member>
}

/// A store's whole state: every published commit.
struct _WholeStateSource<State: Equatable & Sendable>: _StateStreamSource {
    let core: _StoreCore<State>

    func subscribe(receive: @escaping @Sendable (State) -> Void, finish: @escaping @Sendable () -> Void) -> Subscription
    {
        // Without an owner: a stream made inside a reaction outlives the reaction's run.
        core.own(
            withoutOwner { core.sink(dropsFirst: false, file: #fileID, line: #line) { receive($0.current) } },
            also: finish)
    }

    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<State, Member>) -> any _StateStreamSource<Member> {
        _KeyPathStateSource(core: core, path: keyPath)
    }
}

/// The value at a key path of a store's state: read through the store's slice for it, which
/// is cut off by equality.
struct _KeyPathStateSource<State: Equatable & Sendable, Value: Equatable & Sendable>: _StateStreamSource {
    let core: _StoreCore<State>
    let path: _KeyPath<State, Value>

    func subscribe(receive: @escaping @Sendable (Value) -> Void, finish: @escaping @Sendable () -> Void) -> Subscription
    {
        let slice = core.slice(path.keyPath)
        return core.own(withoutOwner { observe { receive(slice.value) } }, also: finish)
    }

    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member> {
        _KeyPathStateSource<State, Member>(
            core: core, path: _KeyPath(keyPath: path.keyPath.appending(path: keyPath.keyPath)))
    }
}
