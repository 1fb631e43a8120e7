@testable import Ripple
import Testing
@testable import RippleModels

@Suite("Yoyo's property family")
struct PropertyTests {
    @Test("a tentative value shows over its parent until reverted, then follows the parent")
    func tentativeRevert() {
        let parent = Stored(1)
        let tentative = Tentative(parent)
        let seen = Log<Int>()
        let observer = tentative.didChange(withCurrent: true) { seen.append($0) }
        tentative.setTentative(5)
        #expect(tentative.isTentative)
        parent.value = 2  // hidden by the tentative value
        tentative.revert()
        #expect(!tentative.isTentative)
        parent.value = 3
        #expect(seen.all == [1, 5, 2, 3])
        _ = observer
    }

    @Test("commit writes a tentative value into a writable parent in one change")
    func tentativeCommit() {
        let parent = Stored(false)
        let tentative = Tentative(parent.binding)
        let changes = Log<Bool>(), updates = Log<Bool>()
        let bag = SubscriptionBag {
            tentative.didChange { changes.append($0) }
            tentative.didUpdate { updates.append($0) }
        }
        tentative.setTentative(true)
        tentative.commit()
        #expect(parent.value)
        #expect(!tentative.isTentative)
        #expect(changes.all == [true], "committing the value already shown changes nothing")
        #expect(updates.all == [true, true], "the commit is an update: the parent was written")
        _ = bag
    }

    @Test("a tentative value is reverted when its timeout passes on the injected clock")
    func tentativeTimeout() async {
        let clock = ManualClock()
        let parent = Stored(0)
        let tentative = Tentative(parent, clock: clock)
        tentative.setTentative(9, timeout: .seconds(10))
        clock.advance(by: .seconds(9))
        #expect(tentative.value == 9)
        clock.advance(by: .seconds(1))
        let settled = await firstValue(of: tentative) { $0 == 0 }
        #expect(settled == 0)
        #expect(!tentative.isTentative)
    }

    @Test("a newer tentative value gets its own timeout; the older one's is cancelled")
    func tentativeTimeoutIsPerValue() async {
        let clock = ManualClock()
        let parent = Stored(0)
        let tentative = Tentative(parent, clock: clock)
        tentative.setTentative(1, timeout: .seconds(5))
        tentative.setTentative(2, timeout: .seconds(20))
        clock.advance(by: .seconds(10))
        #expect(tentative.value == 2)
        clock.advance(by: .seconds(10))
        let settled = await firstValue(of: tentative) { $0 == 0 }
        #expect(settled == 0)
    }

    @Test("a connectable value switches between nodes and constants; the old source stops mattering")
    func connectable() {
        let first = Stored("first"), second = Stored("second")
        let title = Connectable("none")
        let seen = Log<String>()
        let observer = title.didChange(withCurrent: true) { seen.append($0) }
        title.connect(to: first)
        first.value = "first!"
        title.connect(to: second)
        first.value = "ignored"
        second.value = "second!"
        title.connect(toConstant: "constant")
        second.value = "ignored too"
        #expect(seen.all == ["none", "first", "first!", "second", "second!", "constant"])
        #expect(!first.hasObserversForTesting && !second.hasObserversForTesting)
        let connected = Connectable(connectedTo: first)
        #expect(connected.value == "ignored")
        _ = observer
    }

    @Test("a pass-through follows its source without exposing it")
    func passThrough() {
        let source = Stored(1)
        let view = PassThrough(source)
        let seen = Log<Int>()
        let observer = view.didChange(withCurrent: true) { seen.append($0) }
        source.value = 2
        #expect(seen.all == [1, 2])
        #expect(view.value == 2)
        _ = observer
    }

    @Test("a manually recalculated value changes only on recalculate()")
    func manuallyRecalculated() {
        let outside = Log<Int>()  // state Ripple does not track
        outside.append(1)
        let count = ManuallyRecalculated { outside.count }
        let seen = Log<Int>()
        let observer = count.didChange(withCurrent: true) { seen.append($0) }
        outside.append(2)
        #expect(count.value == 1)
        count.recalculate()
        count.recalculate()  // equal: nothing
        #expect(seen.all == [1, 2])
        _ = observer
    }

    final class Person: Sendable {
        let name: Stored<String>
        let friend: Stored<Person?>
        init(_ name: String, friend: Person? = nil) {
            self.name = Stored(name)
            self.friend = Stored(friend)
        }
    }

    @Test("flatMap follows both the outer choice and the inner value, one level")
    func flattenOneLevel() {
        let ada = Person("Ada"), bob = Person("Bob")
        let selected = Stored(ada)
        let name = selected.flatMap { $0.name }
        let seen = Log<String>()
        let observer = name.didChange(withCurrent: true) { seen.append($0) }
        ada.name.value = "Ada L."
        selected.value = bob
        ada.name.value = "ignored"
        bob.name.value = "Bob B."
        #expect(seen.all == ["Ada", "Ada L.", "Bob", "Bob B."])
        _ = observer
    }

    @Test("flatMap through two levels and through optionals")
    func flattenTwoLevelsAndOptionals() {
        let carol = Person("Carol"), dan = Person("Dan")
        let ada = Person("Ada", friend: carol)
        let selected = Stored<Person?>(nil)
        let friendName = selected.flatMap { $0?.friend }.flatMap { $0?.name }
        let seen = Log<String?>()
        let observer = friendName.didChange(withCurrent: true) { seen.append($0) }
        selected.value = ada  // nil → Carol
        carol.name.value = "Caroline"
        ada.friend.value = dan  // inner choice changes
        carol.name.value = "ignored"
        dan.name.value = "Daniel"
        selected.value = nil
        #expect(seen.all == [nil, "Carol", "Caroline", "Dan", "Daniel", nil])
        _ = observer
    }

    final class Todo: SendableModel, @unchecked Sendable {
        @Observed var isDone = false
        let title: String
        init(_ title: String) { self.title = title }
    }

    @Test("deep collection observation follows additions, removals and element changes")
    func observingElements() {
        let first = Todo("first"), second = Todo("second")
        let todos = Stored<[Todo]>([first])
        let list = todos.observingElements(\.isDone)
        let seen = Log<String>()
        let observer = list.didUpdate { items in
            seen.append(items.map { "\($0.title):\($0.isDone)" }.joined(separator: ","))
        }
        first.isDone = true
        todos.value.append(second)
        second.isDone = true
        todos.value.removeFirst()
        first.isDone = false  // no longer in the list
        #expect(seen.all == ["first:true", "first:true,second:false", "first:true,second:true", "second:true"])
        _ = observer
    }

    @Test("commit and revert inside a handler apply to the tentative value set before them")
    func tentativeInsideHandler() {
        let parent = Stored(0)
        let tentative = Tentative(parent.binding)
        let trigger = Stored(0)
        let reaction = trigger.didChange { value in
            tentative.setTentative(value * 10)
            if value == 1 { tentative.commit() } else { tentative.revert() }
        }
        trigger.value = 1
        #expect(parent.value == 10)
        #expect(!tentative.isTentative)
        trigger.value = 2
        #expect(parent.value == 10)
        #expect(tentative.value == 10)
        _ = reaction
    }

    final class Chore: Sendable {
        let isDone = Stored(false)
    }

    @Test("observingElements with a key path to a node follows the node's value")
    func observingElementsThroughNodes() {
        let chore = Chore()
        let chores = Stored([chore])
        let list = chores.observingElements(\.isDone)
        let updates = Log<Int>()
        let observer = list.didUpdate { updates.append($0.count) }
        chore.isDone.value = true
        #expect(updates.all == [1])
        _ = observer
    }
}
