import RippleStore
import Testing

@Suite("Changes")
struct ChangesTests {
    private struct Profile: Equatable, Sendable {
        var first = "Ada"
        var last = "Lovelace"
        var age = 36
        var tags: [String] = []
    }

    @Test("current, previous, version and transaction are what was given")
    func storedProperties() {
        let changes = Changes(
            previous: Profile(age: 1), current: Profile(age: 2), version: 7, transaction: Transaction(name: "birthday"))
        #expect(changes.current.age == 2)
        #expect(changes.previous?.age == 1)
        #expect(changes.version == 7)
        #expect(changes.transaction.name == "birthday")
        let first = Changes<Profile>(previous: nil, current: Profile())
        #expect(first.previous == nil)
        #expect(first.version == 0)
    }

    @Test("dynamic member lookup reads the current state")
    func dynamicMember() {
        let changes = Changes(previous: Profile(first: "Old"), current: Profile(first: "New", tags: ["a"]))
        #expect(changes.first == "New")
        #expect(changes.tags == ["a"])
        #expect(changes.tags.count == 1)
    }

    @Test("ifChanged with one key path runs only when that value changed")
    func ifChangedOne() {
        let changes = Changes(previous: Profile(), current: Profile(age: 37))
        var ages: [Int] = []
        var names: [String] = []
        let ranAge = changes.ifChanged(\.age) { age in
            ages.append(age); return true
        }
        let ranName = changes.ifChanged(\.first) { first in
            names.append(first); return true
        }
        #expect(ages == [37])
        #expect(names.isEmpty)
        #expect(ranAge == true)
        #expect(ranName == nil)
    }

    @Test("ifChanged with two key paths runs when either changed, with both current values")
    func ifChangedPack() {
        let lastChanged = Changes(previous: Profile(), current: Profile(last: "Byron"))
        var seen: [String] = []
        lastChanged.ifChanged(\.first, \.last) { first, last in seen.append("\(first) \(last)") }
        #expect(seen == ["Ada Byron"])

        let neither = Changes(previous: Profile(), current: Profile(age: 40))
        let ran: Void? = neither.ifChanged(\.first, \.last) { _, _ in seen.append("wrong") }
        #expect(ran == nil)
        #expect(seen == ["Ada Byron"])

        // Three key paths of different types, only the last one changed.
        let tagsChanged = Changes(previous: Profile(), current: Profile(tags: ["x"]))
        let result = tagsChanged.ifChanged(\.first, \.age, \.tags) { first, age, tags in "\(first)\(age)\(tags)" }
        #expect(result == "Ada36[\"x\"]")
    }

    @Test("ifChanged with a selector uses the given equality")
    func ifChangedSelector() {
        let changes = Changes(previous: Profile(first: "ada"), current: Profile(first: "ADA", age: 99))
        // Case-insensitive equality: no change.
        let ignored = changes.ifChanged({ $0.first }, { $0.lowercased() == $1.lowercased() }) { _ in "ran" }
        #expect(ignored == nil)
        // Plain equality: a change, and perform gets the current selected value.
        let seen = changes.ifChanged({ $0.first }, ==) { $0 }
        #expect(seen == "ADA")
        // An equality that says "different" always runs, even when the values are equal.
        let forced = changes.ifChanged({ $0.last }, { _, _ in false }) { $0 }
        #expect(forced == "Lovelace")
        #expect(changes.hasChanges({ $0.age / 100 }, ==) == false)
        #expect(changes.hasChanges({ $0.age }, ==) == true)
    }

    @Test("hasChanges for the whole state and for key paths")
    func hasChanges() {
        let same = Changes(previous: Profile(), current: Profile())
        #expect(same.hasChanges == false)
        #expect(same.hasChanges(\.first) == false)
        #expect(same.hasChanges(\.first, \.age) == false)

        let aged = Changes(previous: Profile(), current: Profile(age: 50))
        #expect(aged.hasChanges == true)
        #expect(aged.hasChanges(\.first) == false)
        #expect(aged.hasChanges(\.age) == true)
        #expect(aged.hasChanges(\.first, \.age) == true)
        #expect(aged.hasChanges(\.first, \.last) == false)
    }

    @Test("takeIfChanged returns the current value only when it changed")
    func takeIfChanged() {
        let changes = Changes(previous: Profile(), current: Profile(last: "King"))
        #expect(changes.takeIfChanged(\.last) == "King")
        #expect(changes.takeIfChanged(\.first) == nil)
        #expect(changes.takeIfChanged(\.age) == nil)
    }

    @Test("map keeps version, transaction and the previous state, seen through the transform")
    func map() {
        let changes = Changes(
            previous: Profile(age: 1), current: Profile(first: "Grace", age: 2), version: 4,
            transaction: Transaction(name: "t"))
        let ages = changes.map(\.age)
        #expect(ages.current == 2)
        #expect(ages.previous == 1)
        #expect(ages.version == 4)
        #expect(ages.transaction.name == "t")
        #expect(ages.hasChanges == true)

        let names = changes.map { $0.first }
        #expect(names.previous == "Ada")
        #expect(names.current == "Grace")

        let lasts = changes.map(\.last)
        #expect(lasts.hasChanges == false)

        var calls = 0
        _ = Changes<Profile>(previous: nil, current: Profile()).map { profile -> Int in
            calls += 1
            return profile.age
        }
        #expect(calls == 1)
        let firstMapped = Changes<Profile>(previous: nil, current: Profile()).map(\.age)
        #expect(firstMapped.previous == nil)
    }

    @Test("with no previous state, everything counts as changed")
    func noPrevious() {
        let changes = Changes<Profile>(previous: nil, current: Profile())
        #expect(changes.hasChanges == true)
        #expect(changes.hasChanges(\.first) == true)
        #expect(changes.hasChanges(\.first, \.age) == true)
        #expect(changes.hasChanges({ $0.age }, { _, _ in true }) == true)
        #expect(changes.takeIfChanged(\.first) == "Ada")
        #expect(changes.ifChanged(\.age) { $0 } == 36)
        #expect(changes.ifChanged(\.first, \.last) { "\($0) \($1)" } == "Ada Lovelace")
        #expect(changes.ifChanged({ $0.tags }, { _, _ in true }) { $0.count } == 0)
        #expect(changes.map(\.age).hasChanges == true)
    }

    @Test("a store's first delivery has no previous state; later ones have the one before")
    func fromStore() {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<Changes<AppState>>()
        let subscription = store.sinkState { seen.append($0) }
        store.commit { $0.name = "Ada" }
        store.increment()
        let values = seen.values
        #expect(values.map(\.version) == [0, 1, 2])
        #expect(values.map(\.previous) == [nil, AppState(), AppState(name: "Ada")])
        #expect(values.map { $0.takeIfChanged(\.name) } == ["", "Ada", nil])
        #expect(values.map { $0.takeIfChanged(\.count) } == [0, nil, 1])
        withExtendedLifetime(subscription) {}
    }
}
