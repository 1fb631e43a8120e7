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
@dynamicMemberLookup
public struct StateStream<Value: Sendable>: AsyncSequence, Sendable {
    /// A state, or a part of one.
    public typealias Element = Value

    let source: any _StateStreamSource<Value>
    let subscribed: _SubscribedStream<Value>

    init(source: any _StateStreamSource<Value>) {
        self.source = source
        subscribed = source.subscribe()
    }

    /// Iterates a ``StateStream``; it keeps the stream's subscription alive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Value>.Iterator
        let owner: _SubscribedStream<Value>

        /// The next value, or `nil` once the store is released.
        public mutating func next() async -> Value? {
            await base.next()
        }
    }

    /// An iterator over the current value (at the time of the access) and the later ones.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: subscribed.stream.makeAsyncIterator(), owner: subscribed)
    }

    /// The stream of the value at `keyPath`, which emits only when that value changed.
    ///
    /// - Complexity: Each change of the state compares the value at `keyPath` once, for all
    ///   the streams and readers of that key path.
    public subscript<Member: Equatable & Sendable>(dynamicMember keyPath: KeyPath<Value, Member>) -> StateStream<Member> {
        StateStream<Member>(source: source.scoped(_KeyPath(keyPath: keyPath)))
    }
}

/// A stream and the subscription that feeds it, cancelled when no sequence or iterator holds
/// it any more.
final class _SubscribedStream<Value: Sendable>: @unchecked Sendable {
    let stream: AsyncStream<Value>
    let subscription: Subscription

    init(stream: AsyncStream<Value>, subscription: Subscription) {
        self.stream = stream
        self.subscription = subscription
    }

    deinit {
        subscription.cancel()
    }
}

/// Where a ``StateStream`` comes from: a store's whole state or a key path into it.
protocol _StateStreamSource<Value>: Sendable {
    associatedtype Value: Sendable
    func subscribe() -> _SubscribedStream<Value>
    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member>
}

/// A store's whole state: every published commit.
struct _WholeStateSource<State: Equatable & Sendable>: _StateStreamSource {
    let core: _StoreCore<State>

    func subscribe() -> _SubscribedStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let subscription = core.own(core.sink(dropsFirst: false, file: #fileID, line: #line) { continuation.yield($0.current) }) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return _SubscribedStream(stream: stream, subscription: subscription)
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

    func subscribe() -> _SubscribedStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let slice = core.slice(path.keyPath)
        let subscription = core.own(observe { continuation.yield(slice.value) }) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return _SubscribedStream(stream: stream, subscription: subscription)
    }

    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member> {
        _KeyPathStateSource<State, Member>(core: core, path: _KeyPath(keyPath: path.keyPath.appending(path: keyPath.keyPath)))
    }
}
