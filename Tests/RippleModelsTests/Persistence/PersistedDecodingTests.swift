import Foundation
import Ripple
import Testing
@testable import RippleModels

@Suite("Persisted values: stored data that does not decode")
struct PersistedDecodingTests {
    struct Preferences: Codable, Equatable, Sendable {
        var theme: String
        var fontSize: Int
    }

    /// What a `Persisted` of type `T` reads from a store holding `stored`, and what was reported.
    private func read<T: PropertyListValue>(_ stored: Any, as _: T.Type, default defaultValue: T) -> (
        T, [PersistenceError], MemoryStore
    ) {
        let store = MemoryStore()
        store.set(stored, forKey: "key")
        let value = Persisted("key", default: defaultValue, store: store).value
        return (value, store.reported, store)
    }

    @Test("a number that does not convert exactly is a failure, never a silent conversion")
    func inexactNumbers() {
        #expect(read(3.7, as: Int.self, default: -1).0 == -1)
        #expect(read(1e300, as: Int.self, default: -1).0 == -1)
        #expect(read(2, as: Bool.self, default: false).0 == false)
        #expect(read(Double.greatestFiniteMagnitude, as: Float.self, default: 0).0 == 0)
        #expect(read(1e300, as: Int64.self, default: -1).0 == -1)
        #expect(read(true, as: Int.self, default: -1).0 == -1)
        #expect(read(Int64.max, as: Double.self, default: -1).0 == -1, "2⁶³ - 1 is not a double")
        #expect(read([1, 2.5] as [Any], as: [Int].self, default: []).0 == [])
        for stored in [3.7, 1e300, Double.greatestFiniteMagnitude, true, "3"] as [Any] {
            let (_, reported, _) = read(stored, as: Int.self, default: 0)
            #expect(reported.count == 1)
        }
    }

    @Test("a number that converts exactly is read")
    func exactNumbers() {
        #expect(read(3.0, as: Int.self, default: -1).0 == 3)
        #expect(read(1, as: Bool.self, default: false).0 == true)
        #expect(read(0, as: Bool.self, default: true).0 == false)
        #expect(read(Float(0.1), as: Float.self, default: 0).0 == Float(0.1))
        #expect(read(0.1, as: Float.self, default: 0).0 == Float(0.1), "0.1 read back from text is the float 0.1")
        #expect(read(Double(Float(0.1)), as: Float.self, default: 0).0 == Float(0.1))
        #expect(read(Double.infinity, as: Float.self, default: 0).0 == .infinity)
        #expect(read(7, as: Double.self, default: 0).0 == 7)
        #expect(read(Float(1.5), as: Double.self, default: 0).0 == 1.5)
        #expect(read(NSNumber(value: 42), as: Int.self, default: 0).0 == 42)
        #expect(read(NSNumber(value: 2.5), as: Double.self, default: 0).0 == 2.5)
        #expect(read(NSNumber(value: true), as: Bool.self, default: false).0 == true)
        #expect(read(NSNumber(value: 2.5), as: Int.self, default: 0).0 == 0)
        #expect(
            read([Optional<Any>.some(1), Optional<Any>.some(2)], as: [Int].self, default: []).0 == [1, 2],
            "arrays read back from disk on Linux hold optionals")
    }

    @Test("a failure is reported with the key, the stored type and the expected type")
    func failureIsReported() throws {
        let (value, reported, _) = read(3.7, as: Int.self, default: 5)
        #expect(value == 5)
        let error = try #require(reported.first)
        #expect(error.key == "key")
        #expect(error.storedType == "Double (3.7)")
        #expect(error.expectedType == "Int")
        #expect(error.description.contains("'key'"))
        #expect(error.description.contains("Double (3.7)"))
    }

    @Test("a failure keeps the default in memory and never overwrites the stored data until the app writes")
    func storedDataIsKept() throws {
        let store = MemoryStore(saving: .manually)
        store.set(3.7, forKey: "count")
        do {
            let count = Persisted("count", default: 1, store: store)
            #expect(count.value == 1)
            let other = Persisted("count", default: 1, store: store)
            #expect(other.value == 1)
            count.flush()
            store.runPendingSaves()
        }  // released: the last release saves what is pending
        #expect(store.raw("count") as? Double == 3.7, "nothing overwrote the stored value")
        #expect(store.reported.count == 1, "reported once, by the load")
        let count = Persisted("count", default: 1, store: store)
        count.value = 9  // the app's write replaces it
        count.flush()
        #expect(store.raw("count") as? Int == 9)
    }

    @Test("a record written by an older schema reads as the default, is reported, and stays in the store")
    func olderSchema() throws {
        struct OldPreferences: Codable { var theme: String }
        let store = MemoryStore(saving: .manually)
        let old = try JSONEncoder().encode(OldPreferences(theme: "dark"))
        store.set(old, forKey: "prefs")
        let preferences = Persisted("prefs", default: Preferences(theme: "light", fontSize: 12), store: store)
        #expect(preferences.value == Preferences(theme: "light", fontSize: 12))
        preferences.flush()
        #expect(store.raw("prefs") as? Data == old)
        let error = try #require(store.reported.first)
        #expect(error.key == "prefs")
        #expect(error.storedType.hasPrefix("Data"))
        #expect(error.expectedType.contains("Preferences"))
        #expect(error.reason.contains("fontSize"))
    }

    @Test("a write made before any read still reports the stored value it replaces")
    func blindWriteReportsFirst() {
        let store = MemoryStore()
        store.set("not a number", forKey: "count")
        let count = Persisted("count", default: 0, store: store)
        count.value = 4
        #expect(store.reported.map(\.key) == ["count"])
        #expect(store.raw("count") as? Int == 4)
    }

    @Test("a migration converts the stored data of an older schema, and its result is saved")
    func migration() throws {
        struct OldPreferences: Codable { var theme: String }
        let store = MemoryStore(saving: .manually)
        store.set(try JSONEncoder().encode(OldPreferences(theme: "dark")), forKey: "prefs")
        let migrations = Log<Int>()
        let preferences = Persisted("prefs", default: Preferences(theme: "light", fontSize: 12), store: store) {
            stored in
            migrations.append(1)
            guard let data = stored as? Data, let old = try? JSONDecoder().decode(OldPreferences.self, from: data)
            else { return nil }
            return Preferences(theme: old.theme, fontSize: 12)
        }
        #expect(preferences.value == Preferences(theme: "dark", fontSize: 12))
        #expect(store.reported.isEmpty)
        store.runPendingSaves()
        let saved = try #require(store.raw("prefs") as? Data)
        #expect(try JSONDecoder().decode(Preferences.self, from: saved) == Preferences(theme: "dark", fontSize: 12))
        #expect(migrations.count == 1)
    }

    @Test("a migration that returns nil reports the failure")
    func failedMigration() {
        let store = MemoryStore()
        store.set("eleven", forKey: "count")
        let count = Persisted("count", default: 0, store: store) { _ in nil }
        #expect(count.value == 0)
        #expect(store.reported.count == 1)
        #expect(store.raw("count") as? String == "eleven")
    }

    @Test("a failure is logged on standard error and goes to the process-wide handler by default")
    func logAndProcessWideHandler() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let seen = Log<PersistenceError>()
                PersistenceError.handler = { seen.append($0) }
                let suite = "ripple.tests.decoding.\(UInt64.random(in: 0...UInt64.max))"
                let defaults = UserDefaults(suiteName: suite)!
                defer { defaults.removePersistentDomain(forName: suite) }
                defaults.set(3.7, forKey: "volume level")
                let level = Persisted("volume level", default: 1, store: UserDefaultsStore(defaults))
                guard level.value == 1, seen.count == 1, seen.all[0].key == "volume level" else { exit(1) }
            })
        let log = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(log.contains("'volume level'"))
        #expect(log.contains("Double (3.7)"))
        #expect(log.contains("expected Int"))
    }

    @Test("a store can take its own failures")
    func perStoreHandler() throws {
        let suite = "ripple.tests.decoding.\(UInt64.random(in: 0...UInt64.max))"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("loud", forKey: "volume")
        let seen = Log<PersistenceError>()
        let store = UserDefaultsStore(defaults, onDecodingFailure: { seen.append($0) })
        #expect(Persisted("volume", default: 0.5, store: store).value == 0.5)
        #expect(seen.all.map(\.key) == ["volume"])
        #expect(seen.all.first?.storedType == "String")
    }
}
