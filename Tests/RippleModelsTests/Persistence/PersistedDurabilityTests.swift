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

    #if !canImport(Darwin)
    @Test(
        "a saved value UserDefaults cannot write to disk is reported at each failed write, until one succeeds (Linux)")
    func unwritableValueIsReported() async throws {
        // A suite whose file cannot be written: its directory is a regular file.
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ripple-tests-unwritable-\(UInt64.random(in: 0...UInt64.max))")
        #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data()))
        defer { try? FileManager.default.removeItem(at: blocker) }
        let suite = blocker.path + "/settings"
        await #expect(processExitsWith: .success) { [blocker = blocker.path as String, suite = suite as String] in
            let seen = Log<PersistenceError>()
            PersistenceError.handler = { seen.append($0) }
            let count = Persisted("count", default: 0, store: UserDefaultsStore(UserDefaults(suiteName: suite)!))
            count.value = 42
            count.flush()
            // Reported by the flush's own write before it returns; the background save's
            // write, if it ran first, reported it too.
            let reported = seen.all.filter { $0.kind == .notSaved }.map(\.key)
            guard !reported.isEmpty, Set(reported) == ["count"] else { exit(1) }
            // The background save is done, with what it reports.
            _BackgroundSaves.shared.drain()
            let before = seen.all.count
            // The file can be written now: the next write succeeds, and nothing is reported.
            try? FileManager.default.removeItem(atPath: blocker)
            try? FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: true)
            count.value = 43
            count.flush()
            _BackgroundSaves.shared.drain()
            exit(seen.all.count == before ? 0 : 2)
        }
        #expect(UserDefaults(suiteName: suite)?.object(forKey: "count") as? Int == 43)
    }
    #endif
}
