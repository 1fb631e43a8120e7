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
/// Each iteration subscribes anew and ends when the store is released. Every value is
/// buffered, so a slow iteration still sees each change, in order.
@dynamicMemberLookup
public struct StateStream<Value: Sendable>: AsyncSequence, Sendable {
    /// A state, or a part of one.
    public typealias Element = Value
    /// Iterates a stream of states.
    public typealias AsyncIterator = AsyncStream<Value>.Iterator

    let source: any _StateStreamSource<Value>

    /// Subscribes and returns an iterator over the current value and the later ones.
    public func makeAsyncIterator() -> AsyncStream<Value>.Iterator {
        source.stream().makeAsyncIterator()
    }

    /// The stream of the value at `keyPath`, which emits only when that value changed.
    ///
    /// - Complexity: Each change of the state compares the value at `keyPath` once, for all
    ///   the streams and readers of that key path.
    public subscript<Member: Equatable & Sendable>(dynamicMember keyPath: KeyPath<Value, Member>) -> StateStream<Member> {
        StateStream<Member>(source: source.scoped(_KeyPath(keyPath: keyPath)))
    }
}

/// Where a ``StateStream`` comes from: a store's whole state or a key path into it.
protocol _StateStreamSource<Value>: Sendable {
    associatedtype Value: Sendable
    func stream() -> AsyncStream<Value>
    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member>
}

/// A store's whole state: every published commit.
struct _WholeStateSource<State: Equatable & Sendable>: _StateStreamSource {
    let core: _StoreCore<State>

    func stream() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let subscription = core.own(core.sink(dropsFirst: false, file: #fileID, line: #line) { continuation.yield($0.current) }) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
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

    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let slice = core.slice(path.keyPath)
        let subscription = core.own(observe { continuation.yield(slice.value) }) {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    func scoped<Member: Equatable & Sendable>(_ keyPath: _KeyPath<Value, Member>) -> any _StateStreamSource<Member> {
        _KeyPathStateSource<State, Member>(core: core, path: _KeyPath(keyPath: path.keyPath.appending(path: keyPath.keyPath)))
    }
}
