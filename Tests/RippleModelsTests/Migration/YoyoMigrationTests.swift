import Ripple
@testable import RippleModels
import Testing

/// Issue 17, written as a Yoyo user would: pass-through deduplication and `changePredicate:`.
@Suite struct YoyoMigrationTests {
    @Test func passThroughIsCutOffByEquality() {
        let parent = Stored(3, equals: nil)
        let passThrough = PassThrough(parent)
        let updater = Updater()
        let log = Log<String>()
        updater.onTransition(passThrough) { old, new in log.append("\(old.map(String.init) ?? "nil") → \(new)") }
        let runs = Log<Int>()
        let subscription = observe { runs.append(passThrough.value) }
        withExtendedLifetime((updater, subscription)) {
            parent.value = 3
            parent.value = 4
        }
        #expect(log.all == ["nil → 3", "3 → 4"])  // never "3 → 3"
        #expect(runs.all == [3, 4])
    }

    @Test func passThroughTakesAnEquality() {
        let parent = Stored("a")
        let passThrough = PassThrough(parent, equals: { $0.lowercased() == $1.lowercased() })
        let runs = Log<String>()
        let subscription = observe { runs.append(passThrough.value) }
        withExtendedLifetime(subscription) {
            parent.value = "A"
            parent.value = "b"
        }
        #expect(runs.all == ["a", "b"])
    }

    @Test func manuallyRecalculatedTakesAnEquality() {
        let source = Stored(1.0)
        let rounded = ManuallyRecalculated(equals: { abs($0 - $1) < 0.5 }) { source.value }
        let runs = Log<Double>()
        let subscription = observe { runs.append(rounded.value) }
        withExtendedLifetime(subscription) {
            source.value = 1.2
            rounded.recalculate()
            source.value = 3
            rounded.recalculate()
        }
        #expect(runs.all == [1.0, 3.0])
    }

    @Test func connectableTakesAnEquality() {
        let always = Connectable(1, equals: nil)
        let source = Stored(1, equals: nil)
        let connected = Connectable(connectedTo: source, equals: { _, _ in true })
        let runs = Log<String>()
        let subscriptions = [
            observe { runs.append("always \(always.value)") },
            observe { runs.append("connected \(connected.value)") },
        ]
        withExtendedLifetime(subscriptions) {
            always.connect(toConstant: 1)  // equal value, but no equality: notifies
            source.value = 2  // "always equal": quiet
        }
        #expect(runs.all == ["always 1", "connected 1", "always 1"])
    }

    @Test func tentativeTakesAnEquality() {
        let parent = Stored("a")
        let tentative = Tentative(parent, equals: { $0.lowercased() == $1.lowercased() }, clock: ManualClock())
        let runs = Log<String>()
        let subscription = observe { runs.append(tentative.value) }
        withExtendedLifetime(subscription) {
            tentative.setTentative("A", timeout: .seconds(1))
            tentative.setTentative("c", timeout: .seconds(1))
        }
        #expect(runs.all == ["a", "c"])
    }

    @Test func flatMapTakesAnEquality() {
        final class Person: Sendable { let name: Stored<String>; init(_ name: String) { self.name = Stored(name) } }
        let person = Person("ann")
        let selected = Stored(person)
        let name = selected.flatMap(equals: { $0.lowercased() == $1.lowercased() }) { $0.name }
        let runs = Log<String>()
        let subscription = observe { runs.append(name.value) }
        withExtendedLifetime(subscription) {
            person.name.value = "ANN"
            person.name.value = "bob"
        }
        #expect(runs.all == ["ann", "bob"])
    }

    @Test func observingElementsTakesAnEquality() {
        final class Todo: Sendable { let isDone = Stored(false) }
        let todos = Stored([Todo(), Todo()], equals: { $0.count == $1.count })
        let byCount = todos.observingElements(equals: { $0.count == $1.count }) { $0.isDone.value }
        let runs = Log<Int>()
        let subscription = observe { runs.append(byCount.value.count) }
        withExtendedLifetime(subscription) {
            todos.value[0].isDone.value = true  // same count: quiet
            todos.value = [Todo()]
        }
        #expect(runs.all == [2, 1])
    }
}

@Suite struct YoyoUpdaterTargetTests {
    final class HeaderView: @unchecked Sendable {
        let updater = Updater()
        let isTipHidden: Stored<Bool>
        let log: Log<Bool>
        init(isTipHidden: Stored<Bool>, log: Log<Bool>) {
            self.isTipHidden = isTipHidden
            self.log = log
            updater.keepUpToDate(dependencies: [isTipHidden], updater: self, HeaderView.updateTip)
        }
        func updateTip() { log.append(isTipHidden.value) }
    }

    @Test func aMethodOnAWeaklyHeldTarget() {
        let isTipHidden = Stored(false)
        let log = Log<Bool>()
        var view: HeaderView? = HeaderView(isTipHidden: isTipHidden, log: log)
        isTipHidden.value = true
        #expect(log.all == [false, true])
        weak let weakView = view
        view = nil
        #expect(weakView == nil)  // the updater did not retain it
        isTipHidden.value = false
        #expect(log.all == [false, true])
    }
}

@Suite struct YoyoManyInputsTests {
    @Test func aComputedWithSevenAndWithTenInputs() {
        let inputs = (0..<10).map { Stored($0) }
        let seven = Computed(inputs[0], inputs[1], inputs[2], inputs[3], inputs[4], inputs[5], inputs[6]) {
            a, b, c, d, e, f, g in
            a + b + c + d + e + f + g
        }
        let ten = Computed(
            inputs[0], inputs[1], inputs[2], inputs[3], inputs[4], inputs[5], inputs[6], inputs[7], inputs[8], inputs[9]
        ) { a, b, c, d, e, f, g, h, i, j in
            "\(a + b + c + d + e + f + g + h + i + j)"
        }
        #expect(seven.value == 21)
        #expect(ten.value == "45")
        inputs[9].value = 100
        #expect(seven.value == 21)
        #expect(ten.value == "136")
    }
}
