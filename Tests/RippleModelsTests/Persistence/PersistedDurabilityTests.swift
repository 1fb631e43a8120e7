import Foundation
import Ripple
import Testing
@testable import RippleModels

/// A value saved through `UserDefaultsStore` survives the process, without the app calling
/// `synchronize()`: each test writes in one process and reads in a fresh one (an exit test's
/// child process, or this process after the child exits), from a suite nothing else touched.
@Suite("Persisted values: surviving the process")
struct PersistedDurabilityTests {
    private static func newSuite() -> String {
        "ripple.tests.durability.\(UInt64.random(in: 0...UInt64.max))"
    }

    @Test("a flushed value is on disk for the next process")
    func flushedValueSurvives() async throws {
        let suite = Self.newSuite()
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let count = Persisted("count", default: 0, store: UserDefaultsStore(defaults))
        count.value = 42
        count.flush()
        await #expect(processExitsWith: .success) { [suite = suite as String] in
            guard UserDefaults(suiteName: suite)?.object(forKey: "count") as? Int == 42 else { exit(1) }
        }
    }

    @Test("a value whose last Persisted is released is on disk for the next process")
    func releasedValueSurvives() async throws {
        let suite = Self.newSuite()
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        do {
            let name = Persisted("name", default: "", store: UserDefaultsStore(defaults))
            name.value = "Ada"
        }
        await #expect(processExitsWith: .success) { [suite = suite as String] in
            guard UserDefaults(suiteName: suite)?.string(forKey: "name") == "Ada" else { exit(1) }
        }
    }

    @Test("a save still queued when the process exits is written before it ends")
    func pendingSaveSurvivesExit() async throws {
        let suite = Self.newSuite()
        await #expect(processExitsWith: .success) { [suite = suite as String] in
            let count = Persisted("count", default: 0, store: UserDefaultsStore(UserDefaults(suiteName: suite)!))
            count.value = 7
            withExtendedLifetime(count) { exit(0) }  // no flush, no release
        }
        // Read by this process for the first time, so from disk.
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        #expect(defaults.object(forKey: "count") as? Int == 7)
    }
}
