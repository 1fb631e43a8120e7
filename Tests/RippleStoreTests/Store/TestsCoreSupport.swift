import Foundation
import RippleStore

// Support for the commit, ordering, lifetime and model tests (helper "tests-core"). Every name
// here starts with `Core` so that other test files of the target can declare their own.

/// Counts threads down to zero; `wait()` returns once all have arrived.
final class CoreLatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var remaining: Int

    init(_ count: Int) { remaining = count }

    func arrive() {
        condition.lock()
        remaining -= 1
        if remaining == 0 { condition.broadcast() }
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}

/// Runs `body(thread)` on `count` new threads started together (each waits until all exist,
/// so that they overlap) and returns once all of them have finished.
func coreRunOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let started = CoreLatch(count)
    let finished = CoreLatch(count)
    for index in 0..<count {
        Thread.detachNewThread {
            started.arrive()
            started.wait()
            body(index)
            finished.arrive()
        }
    }
    finished.wait()
}

/// A deterministic linear congruential generator (Knuth's MMIX constants), so that the
/// randomized tests replay exactly.
struct CoreLCG: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        // The low bits of an LCG are weak: hand out the high half twice.
        let high = state >> 32
        return high << 32 | high
    }
}

/// What a subscriber saw, for ordering checks.
struct CoreDelivery: Equatable, Sendable, CustomStringConvertible {
    var subscriber: String
    var version: UInt64
    var state: AppState
    var previous: AppState?
    var description: String { "\(subscriber)@\(version)" }
}

/// An object whose release a test watches through a weak reference.
final class CoreProbe: Sendable {}

/// A typed transaction key for the metadata tests.
enum CoreOrigin: TransactionKey {
    static let defaultValue = "app"
}

/// A second typed key, to check keys do not mix.
enum CoreAttempt: TransactionKey {
    static let defaultValue = 0
}

/// The error the throwing commits throw.
enum CoreCommitError: Error, Equatable {
    case refused
}
