import Foundation
import Ripple
import Testing
@testable import RippleModels

@Suite("Persisted values: one key, one value")
struct PersistedSharingTests {
    @Test("two Persisted for one key are one value: writes through one are seen by the other")
    func sharedValue() {
        let store = MemoryStore()
        let first = Persisted("count", default: 0, store: store)
        let second = Persisted("count", default: 0, store: store)
        _ = first.value
        _ = second.value
        let seen = Log<Int>()
        let observer = second.didChange { seen.append($0) }
        first.value += 1
        second.value += 1
        first.value += 1
        #expect(first.value == 3)
        #expect(second.value == 3)
        #expect(store.raw("count") as? Int == 3)
        #expect(seen.all == [1, 2, 3])
        observer.cancel()
    }

    @Test("two UserDefaultsStore wrapping one UserDefaults object share values")
    func sharedThroughUserDefaults() throws {
        let suite = "ripple.tests.sharing.\(UInt64.random(in: 0...UInt64.max))"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let first = Persisted("count", default: 0, store: UserDefaultsStore(defaults))
        let second = Persisted("count", default: 0, store: UserDefaultsStore(defaults))
        first.value += 1
        second.value += 1
        #expect(first.value == 2)
        first.flush()
        #expect(defaults.integer(forKey: "count") == 2)
    }

    @Test("one key in two stores is two values")
    func separateStores() {
        let one = MemoryStore(), two = MemoryStore()
        let first = Persisted("count", default: 0, store: one)
        let second = Persisted("count", default: 0, store: two)
        first.value = 1
        #expect(second.value == 0)
    }

    @Test("while nothing is stored, each Persisted for a key reads as its own default")
    func ownDefaults() {
        let store = MemoryStore()
        let first = Persisted("count", default: 1, store: store)
        let second = Persisted("count", default: 2, store: store)
        #expect(first.value == 1)
        #expect(second.value == 2)
        second.value = 5
        #expect(first.value == 5)
    }

    @Test("a Persisted created after the others are released reads what they saved")
    func laterPersistedReadsSavedValue() {
        let store = MemoryStore(saving: .manually)
        do {
            let count = Persisted("count", default: 0, store: store)
            count.value = 8
        }
        #expect(Persisted("count", default: 0, store: store).value == 8)
    }

    @Test("releasing every Persisted for a key frees the shared value and the store it holds")
    func sharedValueIsFreed() {
        weak var weakStore: MemoryStore?
        do {
            let store = MemoryStore()
            weakStore = store
            let first = Persisted("count", default: 0, store: store)
            let second = Persisted("count", default: 0, store: store)
            let observer = second.didChange { _ in }
            first.value = 1
            observer.cancel()
        }
        #expect(weakStore == nil)
    }

    @Test("two Persisted for one key with different types stop the program, naming the key and both types")
    func differentTypes() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = MemoryStore()
                let count = Persisted("shared key", default: 0, store: store)
                let name = Persisted("shared key", default: "", store: store)
                _ = (count, name)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("'shared key'"))
        #expect(message.contains("Persisted<Int>"))
        #expect(message.contains("Persisted<String>"))
    }
}
