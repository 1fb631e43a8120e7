import Ripple
import RippleStore

/// A clock that moves only when a test moves it, so code that waits (debounce, throttle,
/// timers, timeouts) is tested without sleeping.
///
/// Give it to the code under test (a ``TestStore``, a `ReducerStore`, a `Tentative`), then
/// move time with ``advance(by:)`` or ``run(limit:)``: every sleeper whose deadline is reached is
/// woken, in deadline order, and given the chance to run before time moves on. A test store on
/// the clock waits, at each deadline, until its effects are idle or asleep again; any other
/// woken task gets a few yields (see ``advance(by:)``).
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(reducer: Search(), initialState: Search.State(), clock: clock)
/// await store.send(.queryChanged("rip")) { $0.query = "rip" }
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.search)
/// ```
public final class TestClock: Clock, @unchecked Sendable {
    /// A moment on a ``TestClock``: the time since the clock was created.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock was created.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, as in "0.3 seconds".
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
        /// The reducer engine whose effect task sleeps, if one does (see `sleeperCount(ownedBy:)`).
        let owner: ObjectIdentifier?
    }

    private let lock = _Lock()
    private var current = Instant()
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0
    private var settlers: [UInt64: @Sendable () async -> Void] = [:]

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant: where the last ``advance(by:)`` left it.
    public var now: Instant {
        lock.withLock { current }
    }

    /// The smallest step: any.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on this clock.
    public var sleeperCount: Int {
        lock.withLock { sleepers.count }
    }

    /// The number of sleepers that are effect tasks of the reducer engine `engine` (or their
    /// child tasks): what a test store compares with its running effects, so that a timer or
    /// another store asleep on the same clock does not count as one of its effects.
    package func sleeperCount(ownedBy engine: ObjectIdentifier) -> Int {
        lock.withLock { sleepers.count { $0.owner == engine } }
    }

    /// Suspends until the clock reaches `deadline` (at once if it has), or throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let owner = _EffectTaskOwner.engine
        let id = lock.withLock { () -> UInt64 in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wait, wake, cancel }
                let outcome = lock.withLock { () -> Outcome in
                    // Checked under the lock: a cancellation handler that ran before the
                    // sleeper was added found nothing to cancel.
                    if Task.isCancelled { return .cancel }
                    if deadline <= current { return .wake }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation, owner: owner))
                    return .wait
                }
                switch outcome {
                case .wait: break
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking each sleeper whose deadline is reached, in
    /// deadline order: the clock stops at each deadline and lets the woken tasks run (and sleep
    /// again, which may wake them again within `duration`) before going on.
    ///
    /// How long it lets them run: a ``TestStore`` or ``MainActorTestStore`` on this clock waits
    /// until its effects are idle or asleep on the clock; then the clock yields ten times. A
    /// woken task outside a test store that goes back to sleep within those yields (a timer
    /// loop) is woken again at each later deadline; one that does more asynchronous work first
    /// may not be asleep again when the clock moves on, and misses those deadlines. Advance
    /// such a task one deadline at a time, waiting for it in between.
    ///
    /// - Precondition: `duration` is not negative.
    public func advance(by duration: Duration) async {
        guard duration >= .zero else {
            fatalError("TestClock.advance(by: \(duration)): a clock cannot move backwards.")
        }
        let end = now.advanced(by: duration)
        await settle()
        // The last pass, which finds no sleeper due, moves the clock to `end` in the same hold
        // of the lock: a sleeper that begins to sleep after it finds the clock there and wakes
        // at once, and one that began before it was found due.
        while let due = takeDue(before: end, otherwiseMovingTo: end) {
            for sleeper in due { sleeper.continuation.resume() }
            await settle()
        }
        await settle()
    }

    /// Moves the clock to `deadline` (see ``advance(by:)``).
    public func advance(to deadline: Instant) async {
        await advance(by: Swift.max(.zero, now.duration(to: deadline)))
    }

    /// Moves the clock forward until no task sleeps on it.
    ///
    /// - Parameter limit: The most it may move, against a task that sleeps forever in a loop.
    public func run(limit: Duration = .seconds(86_400)) async {
        let end = now.advanced(by: limit)
        await settle()
        while let due = takeDue(before: end) {
            for sleeper in due { sleeper.continuation.resume() }
            await settle()
        }
    }

    /// The sleepers due at the earliest deadline not after `end`, removed, with the clock set
    /// to that deadline; `nil` when none is due, having moved the clock to `last` if given.
    private func takeDue(before end: Instant, otherwiseMovingTo last: Instant? = nil) -> [Sleeper]? {
        lock.withLock { () -> [Sleeper]? in
            guard let earliest = sleepers.map(\.deadline).min(), earliest <= end else {
                if let last { current = Swift.max(current, last) }
                return nil
            }
            current = Swift.max(current, earliest)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
    }

    /// Lets woken tasks run: each registered settler (a test store waits for its effects) and
    /// then a few yields.
    private func settle() async {
        let settlers = lock.withLock { Array(self.settlers.values) }
        for settler in settlers { await settler() }
        for _ in 0..<_TestClockSettling.yields { await Task.yield() }
    }

    /// Registers work that lets the tasks this clock wakes finish what they do before the clock
    /// moves on; returns a key for ``_removeSettler(_:)``.
    package func _addSettler(_ settler: @escaping @Sendable () async -> Void) -> UInt64 {
        lock.withLock {
            nextID += 1
            settlers[nextID] = settler
            return nextID
        }
    }

    package func _removeSettler(_ key: UInt64) {
        _ = lock.withLock { settlers.removeValue(forKey: key) }
    }
}

enum _TestClockSettling {
    /// How many times a clock yields after waking sleepers.
    static let yields = 10
}
