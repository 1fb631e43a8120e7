import Ripple
@testable import RippleModels

/// A thread-safe log that handlers append to.
final class Log<Element>: @unchecked Sendable {
    private let lock = _Lock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var all: [Element] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
    func removeAll() { lock.withLock { storage.removeAll() } }
}

/// A geometry value, for key-path projections.
struct Size: Equatable, Sendable {
    var width = 0.0
    var height = 0.0
}

struct Frame: Equatable, Sendable {
    var x = 0.0
    var size = Size()
}

struct Address: Equatable, Sendable {
    var city: String
    var street: String
}

struct User: Equatable, Sendable {
    var name: String
    var address: Address?
}

/// A DidUpdate-style view model.
final class ViewModel: SendableModel, @unchecked Sendable {
    let didSetCount = Log<Int>()

    @Observed var count = 0 {
        didSet { didSetCount.append(count) }
    }
    @Observed var frame = Frame()
    @Observed var user = User(name: "", address: nil)
    @Observed var name = ""
    @Observed var isOn = false
}

/// A plain object that `Updater.bind` assigns into.
final class Label: @unchecked Sendable {
    var text = ""
}

/// A clock whose time moves only when a test advances it.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = _Lock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = lock.withLock {
            nextID += 1; return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock {
                sleepers.firstIndex { $0.id == id }.map { sleepers.remove(at: $0) }
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    func advance(by duration: Duration) {
        let due: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

/// Waits, without sleeping, until `node` takes a value satisfying `predicate`.
func firstValue<Value: Sendable>(of node: some Readable<Value> & Sendable, where predicate: @Sendable (Value) -> Bool)
    async -> Value?
{
    for await value in node.values(buffering: .unbounded) where predicate(value) {
        return value
    }
    return nil
}
