import Foundation
import RippleStore

// Support for the commit, ordering, lifetime and model tests (helper "tests-core"). Every name
// here starts with `Core` so that other test files of the target can declare their own.

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
