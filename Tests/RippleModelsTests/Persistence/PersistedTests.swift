import Foundation
import Ripple
import Testing
@testable import RippleModels

/// An in-memory store that counts what it is asked, and runs saves at once (write-through)
/// or keeps them until the test runs them (`runPendingSaves()`).
final class MemoryStore: KeyValueStore, @unchecked Sendable {
    enum Saving { case immediately, manually }

    private let lock = _Lock()
    private let saving: Saving
    private var objects: [String: Any] = [:]
    private var reads = 0
    private var writes = 0
    private var synchronizations = 0
    private var pendingSaves: [@Sendable () -> Void] = []
    private var failures: [PersistenceError] = []
    /// Whether a call found the graph's lock held by the calling thread.
    private var calledUnderGraphLock = false

    private var writeFailures: [PersistenceError] = []
    /// What the store keeps of an object (`storedForm(of:)`); the object itself by default.
    private let keeps: @Sendable (Any) -> Any

    init(saving: Saving = .immediately, keeps: @escaping @Sendable (Any) -> Any = { $0 }) {
        self.saving = saving
        self.keeps = keeps
    }

    func object(forKey key: String) -> Any? {
        let held = _graph.lock.isHeldForTesting
        return lock.withLock {
            reads += 1; calledUnderGraphLock = calledUnderGraphLock || held; return objects[key]
        }
    }
    func set(_ value: Any?, forKey key: String) {
        let held = _graph.lock.isHeldForTesting
        lock.withLock {
            writes += 1; calledUnderGraphLock = calledUnderGraphLock || held; objects[key] = value
        }
    }
    func scheduleSave(_ save: @escaping @Sendable () -> Void) {
        switch saving {
        case .immediately: save()
        case .manually: lock.withLock { pendingSaves.append(save) }
        }
    }
    func synchronize() { lock.withLock { synchronizations += 1 } }
    func reportDecodingFailure(_ error: PersistenceError) { lock.withLock { failures.append(error) } }
    func storedForm(of object: Any) -> Any { keeps(object) }
    func reportWriteFailure(_ error: PersistenceError) { lock.withLock { writeFailures.append(error) } }

    /// Runs the saves scheduled so far, in order.
    func runPendingSaves() {
        let saves = lock.withLock {
            defer { pendingSaves = [] }; return pendingSaves
        }
        for save in saves { save() }
    }
    var readCount: Int { lock.withLock { reads } }
    var writeCount: Int { lock.withLock { writes } }
    var synchronizeCount: Int { lock.withLock { synchronizations } }
    var pendingSaveCount: Int { lock.withLock { pendingSaves.count } }
    var reported: [PersistenceError] { lock.withLock { failures } }
    var reportedWrites: [PersistenceError] { lock.withLock { writeFailures } }
    var wasCalledUnderGraphLock: Bool { lock.withLock { calledUnderGraphLock } }
    func raw(_ key: String) -> Any? { lock.withLock { objects[key] } }
}

@Suite("Persisted values")
struct PersistedTests {
    struct Preferences: Codable, Equatable, Sendable {
        var theme: String
        var fontSize: Int
    }

    final class Settings: SendableModel, @unchecked Sendable {
        @Persisted("volume", store: Settings.store) var volume = 0.5
        nonisolated(unsafe) static var store: MemoryStore = MemoryStore()
    }

    @Test("a property-list value is loaded lazily and written on change only")
    func propertyListValue() {
        let store = MemoryStore()
        store.set(7, forKey: "count")
        let count = Persisted("count", default: 0, store: store)
        #expect(store.readCount == 0, "nothing is loaded before the first read")
        #expect(count.value == 7)
        let seen = Log<Int>()
        let observer = count.didChange { seen.append($0) }
        count.value = 8
        count.value = 8
        #expect(store.raw("count") as? Int == 8)
        #expect(store.writeCount == 2, "the initial set and one change")
        #expect(seen.all == [8])
        _ = observer
    }

    @Test("a Codable value is stored as JSON data and read back")
    func codableValue() {
        let store = MemoryStore()
        let preferences = Persisted("prefs", default: Preferences(theme: "light", fontSize: 12), store: store)
        preferences.value.fontSize = 14
        #expect(store.raw("prefs") is Data)
        let reloaded = Persisted("prefs", default: Preferences(theme: "?", fontSize: 0), store: store)
        #expect(reloaded.value == Preferences(theme: "light", fontSize: 14))
    }

    @Test("a stored object of the wrong type falls back to the default")
    func wrongTypeFallsBack() {
        let store = MemoryStore()
        store.set("not a number", forKey: "count")
        #expect(Persisted("count", default: 3, store: store).value == 3)
    }

    @Test("UserDefaults works as the store on every platform")
    func userDefaults() throws {
        let suite = "ripple.tests.\(UInt64.random(in: 0...UInt64.max))"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let name = Persisted("name", default: "", store: UserDefaultsStore(defaults))
        name.value = "Ada"
        name.flush()  // saves are written behind, on a background queue
        #expect(defaults.string(forKey: "name") == "Ada")
        #expect(Persisted("name", default: "", store: UserDefaultsStore(defaults)).value == "Ada")
    }

    @Test("as a property wrapper in a model, it binds and is tracked")
    func propertyWrapperInModel() {
        let settings = Settings()
        let seen = Log<Double>()
        let observer = settings.bindings.volume.didChange { seen.append($0) }
        settings.bindings.volume.value = 0.8
        settings.volume = 0.9
        #expect(seen.all == [0.8, 0.9])
        #expect(Settings.store.raw("volume") as? Double == 0.9)
        _ = observer
    }

    @Test("writes inside a reaction are applied in order: memory and store end on the last value")
    func writesInsideReaction() {
        let store = MemoryStore()
        let theme = Persisted("theme", default: "light", store: store)
        let trigger = Stored(0)
        let reaction = trigger.didChange { _ in
            theme.value = "dark"
            theme.value = "light"
        }
        trigger.value = 1
        #expect(theme.value == "light")
        #expect(store.raw("theme") as? String == "light")
        _ = reaction
    }

    @Test("every property-list type round-trips through UserDefaults, Int64 and arrays included")
    func propertyListRoundTrip() throws {
        let suite = "ripple.tests.\(UInt64.random(in: 0...UInt64.max))"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = UserDefaultsStore(defaults)
        func roundTrip<T: PropertyListValue & Equatable>(_ value: T, _ fallback: T) -> T {
            let key = "\(T.self)"
            Persisted(key, default: fallback, store: store).value = value
            return Persisted(key, default: fallback, store: store).value
        }
        #expect(roundTrip(true, false) == true)
        #expect(roundTrip(42, 0) == 42)
        #expect(roundTrip(Int64(1) << 40, 0) == Int64(1) << 40)
        #expect(roundTrip(2.5, 0.0) == 2.5)
        #expect(roundTrip(Float(1.5), 0) == 1.5)
        #expect(roundTrip("text", "") == "text")
        #expect(roundTrip(Data([1, 2, 3]), Data()) == Data([1, 2, 3]))
        #expect(
            roundTrip(Date(timeIntervalSince1970: 100), Date(timeIntervalSince1970: 0))
                == Date(timeIntervalSince1970: 100))
        #expect(roundTrip([Int64(1) << 40, 2], []) == [Int64(1) << 40, 2])
        #expect(roundTrip(["a": 1.5], [:]) == ["a": 1.5])
    }

    @Test("a Codable value holding a non-finite number is saved, not silently dropped")
    func nonFiniteNumbers() {
        struct Reading: Codable, Equatable, Sendable { var value: Double }
        let store = MemoryStore()
        Persisted("reading", default: Reading(value: 0), store: store).value = Reading(value: .infinity)
        #expect(Persisted("reading", default: Reading(value: 0), store: store).value == Reading(value: .infinity))
    }

    @Test("a persisted value created inside a reaction keeps saving after that reaction re-runs")
    func savingOutlivesTheCreatingReaction() {
        let store = MemoryStore()
        let trigger = Stored(0)
        let holder = Log<Persisted<Int>>()
        let reaction = observe {
            _ = trigger.value
            if holder.count == 0 { holder.append(Persisted("n", default: 0, store: store)) }
        }
        trigger.value = 1  // the creating reaction re-runs
        holder.all[0].value = 5
        #expect(store.raw("n") as? Int == 5)
        reaction.cancel()
    }

    @Test("a first read inside a Computed's derivation loads there, and the derivation tracks later writes")
    func firstReadInsideDerivation() {
        let store = MemoryStore()
        store.set(4, forKey: "n")
        let n = Persisted("n", default: 0, store: store)
        let doubled = Computed { n.value * 2 }
        #expect(doubled.value == 8)
        n.value = 5
        #expect(doubled.value == 10)
        #expect(store.raw("n") as? Int == 5)
    }
}
