import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct ObservablesTests {
    @Test("subscribe gets the old and the new value; by option, a call at once with nil as old")
    func subscribe() {
        let name = Stored("a")
        let seen = Locked<[String]>([])
        let plain = name.subscribe { old, new in seen.mutate { $0.append("\(old ?? "nil")→\(new)") } }
        #expect(seen.value.isEmpty)
        name.value = "b"
        #expect(seen.value == ["a→b"])

        let eager = Locked<[String]>([])
        let immediate = name.subscribe(.notifyingOnSubscription) { old, new in
            eager.mutate { $0.append("\(old ?? "nil")→\(new)") }
        }
        #expect(eager.value == ["nil→b"])
        name.value = "c"
        #expect(eager.value == ["nil→b", "b→c"])
        withExtendedLifetime((plain, immediate)) {}
    }

    @Test("an Event's handlers never fire on subscribe, only on send")
    func eventsDoNotFireOnSubscribe() {
        let tapped = Event<Int>()
        let seen = Locked<[Int]>([])
        let subscription = tapped.subscribe { value in seen.mutate { $0.append(value) } }
        #expect(seen.value.isEmpty)
        tapped.send(1)
        #expect(seen.value == [1])
        withExtendedLifetime(subscription) {}
    }

    @Test("a writable computed value: tracked, memoized, assignable, with before-change handlers")
    func writableComputed() {
        let first = Stored("Ada"), last = Stored("Lovelace")
        let evaluations = Locked(0)
        let fullName = WritableComputed(
            get: {
                evaluations.mutate { $0 += 1 }
                return "\(first.value) \(last.value)"
            },
            set: { name in
                let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
                batch {
                    first.value = parts.first ?? ""
                    last.value = parts.count > 1 ? parts[1] : ""
                }
            }
        )
        #expect(evaluations.value == 0)  // lazy
        #expect(fullName.value == "Ada Lovelace")
        #expect(fullName.value == "Ada Lovelace")
        #expect(evaluations.value == 1)  // memoized

        let before = Locked<[String]>([])
        let willChange = fullName.willChange { old, new in
            // Called before the setter: the graph still shows the old value.
            before.mutate { $0.append("\(old)|\(new)|\(first.value)") }
        }
        let after = Locked<[String]>([])
        let didChange = fullName.didChange { old, new in after.mutate { $0.append("\(old)→\(new)") } }
        fullName.value = "Grace Hopper"
        #expect(first.value == "Grace")
        #expect(last.value == "Hopper")
        #expect(before.value == ["Ada Lovelace|Grace Hopper|Ada"])
        #expect(after.value == ["Ada Lovelace→Grace Hopper"])

        // Two-way through its binding.
        fullName.binding.value = "Alan Turing"
        #expect(last.value == "Turing")
        withExtendedLifetime((willChange, didChange)) {}
    }

    @Test("a custom type that reports its reads and changes is tracked like a Stored")
    func changeSignal() {
        let thermometer = Thermometer()
        let evaluations = Locked(0)
        let warm = Computed {
            evaluations.mutate { $0 += 1 }
            return thermometer.reading > 25
        }
        let seen = Locked<[Bool]>([])
        let reaction = observe {
            let value = warm.value; seen.mutate { $0.append(value) }
        }
        #expect(seen.value == [false])
        thermometer.record(30)
        #expect(seen.value == [false, true])
        thermometer.record(31)  // re-evaluated, equal: the reaction does not run
        #expect(evaluations.value == 3)
        #expect(seen.value == [false, true])
        withExtendedLifetime(reaction) {}
    }
}

final class Thermometer: @unchecked Sendable {
    private let signal = ChangeSignal(name: "thermometer")
    private let celsius = Locked(20.0)

    var reading: Double {
        signal.reportRead()
        return celsius.value
    }

    func record(_ value: Double) {
        celsius.value = value
        signal.reportChange()
    }
}
