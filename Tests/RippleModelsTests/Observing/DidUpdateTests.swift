import Ripple
import Testing
@testable import RippleModels

@Suite("didUpdate, didChange and didChange(comparing:)")
struct DidUpdateTests {
    @Test("an equal write fires didUpdate but not didChange")
    func equalWriteUpdatesButDoesNotChange() {
        let model = ViewModel()
        let updates = Log<String>()
        let changes = Log<String>()
        let bag = SubscriptionBag {
            model.bindings.count.didUpdate { old, new in updates.append("\(old)→\(new)") }
            model.bindings.count.didChange { old, new in changes.append("\(old)→\(new)") }
        }
        model.count = 0
        model.count = 1
        model.count = 1
        #expect(updates.all == ["0→0", "0→1", "1→1"])
        #expect(changes.all == ["0→1"])
        _ = bag
    }

    @Test("didUpdate on a Stored, and on a binding to one, hears equal writes too")
    func storedDidUpdateHearsEqualWrites() {
        let count = Stored(0)
        let updates = Log<String>(), bindingUpdates = Log<Int>(), changes = Log<Int>()
        let bag = SubscriptionBag {
            count.didUpdate { old, new in updates.append("\(old)→\(new)") }
            count.binding.didUpdate { bindingUpdates.append($0) }
            count.didChange { changes.append($0) }
        }
        count.value = 0
        count.value = 1
        #expect(updates.all == ["0→0", "0→1"])
        #expect(bindingUpdates.all == [0, 1])
        #expect(changes.all == [1])
        _ = bag
    }

    @Test("reading an @Observed property tracks it like a Stored: equal writes rerun nothing")
    func observedPropertyIsTrackedLikeStored() {
        let model = ViewModel()
        let doubled = Computed { model.count * 2 }
        let runs = Log<Int>()
        let reaction = observe { runs.append(doubled.value) }
        model.count = 0
        model.count = 3
        #expect(runs.all == [0, 6])
        reaction.cancel()
    }

    @Test("withCurrent fires at once for every handler kind")
    func withCurrentFiresAtOnce() {
        let model = ViewModel()
        model.count = 4
        let log = Log<String>()
        let bag = SubscriptionBag {
            model.bindings.count.didUpdate(withCurrent: true) { log.append("update \($0)") }
            model.bindings.count.didChange(withCurrent: true) { log.append("change \($0)") }
            model.bindings.count.didChange(withCurrent: true) { old, new in log.append("change \(old)→\(new)") }
            model.bindings.count.didChange(comparing: \.description.count, withCurrent: true) {
                log.append("digits \($0)")
            }
            model.bindings.count.didUpdate { log.append("late \($0)") }
        }
        #expect(log.all == ["update 4", "change 4", "change 4→4", "digits 4"])
        _ = bag
    }

    @Test("didChange(comparing:) fires only when the projection changes, through optionals")
    func comparingThroughOptionals() {
        let model = ViewModel()
        let cities = Log<String?>()
        let observer = model.bindings.user.didChange(comparing: \.address?.city) { cities.append($0.address?.city) }
        model.user.name = "Ada"  // not compared
        model.user.address = Address(city: "London", street: "A")  // nil → London
        model.user.address?.street = "B"  // same city
        model.user.address = nil  // London → nil
        #expect(cities.all == ["London", nil])
        _ = observer
    }

    @Test("didChange(comparing:) with several key paths fires when any of them changes")
    func comparingSeveralPaths() {
        let model = ViewModel()
        let log = Log<String>()
        let observer = model.bindings.user.didChange(comparing: \.name, \.address?.street) { old, new in
            log.append("\(old.name)/\(old.address?.street ?? "-") → \(new.name)/\(new.address?.street ?? "-")")
        }
        model.user.name = "Ada"
        model.user.address = Address(city: "X", street: "S")
        model.user.address?.city = "Y"  // not compared
        #expect(log.all == ["/- → Ada/-", "Ada/- → Ada/S"])
        _ = observer
    }

    @Test("nested maps fire didChange only when the final value flips")
    func nestedMapsFireOnFlip() {
        let model = ViewModel()
        let isLarge = model.bindings.count.map { $0 > 10 }.map { !$0 }.map { !$0 }
        let log = Log<Bool>()
        let observer = isLarge.didChange { log.append($0) }
        for count in [1, 5, 11, 12, 20, 3, 2] { model.count = count }
        #expect(log.all == [true, false])
        _ = observer
    }

    @Test("a compound fires when either side changes, with both values")
    func compoundFiresOnEitherSide() {
        let model = ViewModel()
        let log = Log<String>()
        let observer = compound(model.bindings.name, model.bindings.isOn).didChange { name, isOn in
            log.append("\(name) \(isOn)")
        }
        model.name = "a"
        model.isOn = true
        model.isOn = true  // equal: nothing
        batch {
            model.name = "b"; model.isOn = false
        }  // one notification
        #expect(log.all == ["a false", "a true", "b false"])
        _ = observer
    }

    @Test("a compound of four values: didChange gets all four parts, once per change")
    func compoundOfFourDidChange() {
        let street = Stored("Main St"), city = Stored("Springfield"), zip = Stored(12345), country = Stored("US")
        let log = Log<String>()
        let observer = compound(street, city, zip, country).didChange { street, city, zip, country in
            log.append("\(street), \(city) \(zip) \(country)")
        }
        zip.value = 54321
        zip.value = 54321  // equal: nothing
        batch {
            city.value = "Shelbyville"; country.value = "CA"
        }  // one notification
        #expect(log.all == ["Main St, Springfield 54321 US", "Main St, Shelbyville 54321 CA"])
        _ = observer
    }

    @Test("allTrue and someTrue follow every input")
    func allTrueAndSomeTrue() {
        let a = Stored(false), b = Stored(false)
        let all = Log<Bool>(), some = Log<Bool>()
        let bag = SubscriptionBag {
            allTrue(a, b).didChange(withCurrent: true) { all.append($0) }
            someTrue(a, b).didChange(withCurrent: true) { some.append($0) }
        }
        a.value = true
        b.value = true
        a.value = false
        #expect(all.all == [false, true, false])
        #expect(some.all == [false, true])
        _ = bag
    }

    @Test("a diamond through bindings and maps notifies once per write with consistent values")
    func diamondThroughBindingsIsGlitchFree() {
        let model = ViewModel()
        let doubled = model.bindings.count.map { $0 * 2 }
        let next = model.bindings.count.map { $0 + 1 }
        let log = Log<String>()
        let bag = SubscriptionBag {
            compound(doubled, next).didUpdate { pair in log.append("\(pair.0),\(pair.1)") }
            observe { log.append("observe \(doubled.value),\(next.value)") }
        }
        log.removeAll()
        for count in 1...3 { model.count = count }
        #expect(
            log.all == [
                "2,2", "observe 2,2",
                "4,3", "observe 4,3",
                "6,4", "observe 6,4",
            ])
        _ = bag
    }

    @Test("a write inside a handler reaches every later handler, in order")
    func writeInsideHandlerIsDeliveredInOrder() {
        let model = ViewModel()
        let first = Log<Int>(), second = Log<Int>(), third = Log<Int>()
        let bag = SubscriptionBag {
            model.bindings.count.didChange { value in
                first.append(value)
                if value == 1 { model.bindings.count.value = 2 }  // queued whole, didSet included
            }
            model.bindings.count.didChange { second.append($0) }
            model.bindings.count.didUpdate { third.append($0) }
        }
        model.bindings.count.value = 1  // didSet runs before delivery
        #expect(first.all == [1, 2])
        #expect(second.all == [1, 2])
        #expect(third.all == [1, 2])
        #expect(model.didSetCount.all == [1, 2])
        _ = bag
    }

    @Test("observers stop when released, cancelled, or their bag goes away")
    func observersCancel() {
        let count = Stored(0)
        let log = Log<Int>()
        var observers: [Subscription] = []
        count.didChange { log.append($0) }.add(to: &observers)
        var bag: SubscriptionBag? = SubscriptionBag()
        count.didUpdate { log.append($0 * 100) }.add(to: bag!)
        var single: Subscription? = count.didChange { log.append(-$0) }
        count.value = 1
        #expect(log.all == [1, 100, -1])
        single = nil
        bag = nil
        count.value = 2
        #expect(log.all == [1, 100, -1, 2])
        observers.removeAll()
        count.value = 3
        #expect(log.all == [1, 100, -1, 2])
        _ = (single, bag)
    }

    @Test("the result builder collects conditional and looped subscriptions")
    func builderCollects() {
        let values = (0..<3).map { Stored($0) }
        let includeExtra = true
        let bag = SubscriptionBag {
            for value in values { value.didChange { _ in } }
            if includeExtra { values[0].didUpdate { _ in } }
            if !includeExtra { values[0].didUpdate { _ in } } else { values[1].didUpdate { _ in } }
        }
        #expect(bag.count == 5)
    }
}
