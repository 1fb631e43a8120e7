import Foundation
import RippleStore

// Support for the tests of issue 10 items 4-10 (fine-grained reads, derived values, bindings,
// derived fields and middleware, activities, dispatchers, async, logging). Every name starts
// with `TD` so that it never meets another test file's helpers.

/// A value that is not `Equatable`: reading it through `store.state` tracks the whole state.
struct TDBox: Sendable {
    var number = 0
}

/// A nested, `Equatable` part of the state, for scoped dispatchers and projections.
struct TDProfile: Equatable, Sendable {
    var first = ""
    var last = ""
}

/// The state most of these tests use.
struct TDState: Equatable, Sendable {
    var name = ""
    var count = 0
    var a = 0
    var b = 0
    var flag = false
    var profile = TDProfile()
    var box = TDBox()

    static func == (lhs: TDState, rhs: TDState) -> Bool {
        lhs.name == rhs.name && lhs.count == rhs.count && lhs.a == rhs.a && lhs.b == rhs.b
            && lhs.flag == rhs.flag && lhs.profile == rhs.profile && lhs.box.number == rhs.box.number
    }
}

enum TDActivity: Equatable, Sendable {
    case ping(Int)
    case pong
}

final class TDStore: Store<TDState, TDActivity>, @unchecked Sendable {
    func increment() { commit("increment") { $0.count += 1 } }
    func rename(_ name: String) { commit("rename") { $0.name = name } }
}

/// A thread-safe counter.
final class TDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0

    func increment() { lock.withLock { storage += 1 } }
    var value: Int { lock.withLock { storage } }
    func reset() { lock.withLock { storage = 0 } }
}

/// A thread-safe log.
final class TDLog<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var all: [Element] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
    func removeAll() { lock.withLock { storage.removeAll() } }
}

/// A signal an async test awaits and a task (or thread) sends: an `AsyncStream` with one
/// buffered element per `signal()`.
final class TDSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func signal() { continuation.yield() }

    /// Waits for the next signal (returns at once when one is buffered).
    func wait() async {
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
    }
}

/// A stream that never yields until `open()` is called: a task awaiting it is held until it is
/// opened or cancelled (an `AsyncStream` iteration ends when its task is cancelled).
final class TDGate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func open() { continuation.finish() }

    /// Returns when the gate is opened or the current task is cancelled.
    func pass() async {
        for await _ in stream {}
    }
}

/// Records everything a store logs.
final class TDLogger: StoreLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var commitStorage: [StoreLog.Commit] = []
    private var activityStorage: [StoreLog.Activity] = []

    func didCommit(_ commit: StoreLog.Commit) { lock.withLock { commitStorage.append(commit) } }
    func didSendActivity(_ activity: StoreLog.Activity) { lock.withLock { activityStorage.append(activity) } }

    var commits: [StoreLog.Commit] { lock.withLock { commitStorage } }
    var activities: [StoreLog.Activity] { lock.withLock { activityStorage } }
}
