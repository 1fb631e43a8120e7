import Foundation
import Ripple
import Testing
@testable import RippleModels

/// Stored data that does not decode (a record written by an older schema) is never lost: the
/// first write that replaces it copies it, exactly as stored, to the recovery key its error
/// names.
@Suite("Persisted values: recovering stored data that does not decode")
struct PersistedRecoveryTests {
    struct Profile: Codable, Equatable, Sendable {
        var name: String
        var age: Int
    }

    struct OldProfile: Codable { var name: String }

    /// A store holding a profile written before `age` was added.
    private func storeWithOldProfile() throws -> (MemoryStore, Data) {
        let store = MemoryStore(saving: .manually)
        let old = try JSONEncoder().encode(OldProfile(name: "Ada"))
        store.set(old, forKey: "profile")
        return (store, old)
    }

    @Test("the first edit of the default keeps the unreadable record under the key the error names")
    func firstEditKeepsTheRecord() throws {
        let (store, old) = try storeWithOldProfile()
        let profile = Persisted("profile", default: Profile(name: "", age: 0), store: store)
        #expect(profile.value == Profile(name: "", age: 0))
        let error = try #require(store.reported.first)
        #expect(error.recoveryKey == "profile.unreadable")
        #expect(error.description.contains("profile.unreadable"))

        profile.value.age = 37
        profile.flush()

        let saved = try #require(store.raw("profile") as? Data)
        #expect(try JSONDecoder().decode(Profile.self, from: saved) == Profile(name: "", age: 37))
        #expect(store.raw("profile.unreadable") as? Data == old, "the user's record was lost")
        // It reads back with the old type.
        let recovered = Persisted("profile.unreadable", default: Data(), store: store)
        #expect(try JSONDecoder().decode(OldProfile.self, from: recovered.value).name == "Ada")
    }

    @Test("a write made before any read keeps the record too")
    func blindWriteKeepsTheRecord() throws {
        let (store, old) = try storeWithOldProfile()
        let profile = Persisted("profile", default: Profile(name: "", age: 0), store: store)
        profile.value = Profile(name: "Grace", age: 85)
        profile.flush()
        #expect(store.raw("profile.unreadable") as? Data == old)
        #expect(store.reported.map(\.recoveryKey) == ["profile.unreadable"])
    }

    @Test("an earlier recovery is never overwritten: the next one is numbered")
    func earlierRecoveryIsKept() throws {
        let (store, old) = try storeWithOldProfile()
        store.set("an earlier recovery", forKey: "profile.unreadable")
        let profile = Persisted("profile", default: Profile(name: "", age: 0), store: store)
        #expect(profile.value.age == 0)
        #expect(store.reported.first?.recoveryKey == "profile.unreadable.2")
        profile.value.age = 1
        profile.flush()
        #expect(store.raw("profile.unreadable") as? String == "an earlier recovery")
        #expect(store.raw("profile.unreadable.2") as? Data == old)
    }

    @Test("nothing is copied while nothing is written, nor for a value that converts")
    func nothingCopiedWithoutAWrite() throws {
        let (store, old) = try storeWithOldProfile()
        let profile = Persisted("profile", default: Profile(name: "", age: 0), store: store)
        _ = profile.value
        profile.flush()
        #expect(store.raw("profile") as? Data == old)
        #expect(store.raw("profile.unreadable") == nil)

        let count = Persisted("count", default: 0, store: store)
        count.value = 3
        count.flush()
        #expect(store.raw("count.unreadable") == nil)
    }

    @Test("a migration converts the record: nothing is copied")
    func migrationCopiesNothing() throws {
        let (store, _) = try storeWithOldProfile()
        let profile = Persisted("profile", default: Profile(name: "", age: 0), store: store) { stored in
            guard let data = stored as? Data, let old = try? JSONDecoder().decode(OldProfile.self, from: data) else {
                return nil
            }
            return Profile(name: old.name, age: 0)
        }
        #expect(profile.value.name == "Ada")
        profile.value.age = 37
        profile.flush()
        #expect(store.raw("profile.unreadable") == nil)
        #expect(store.reported.isEmpty)
    }
}
