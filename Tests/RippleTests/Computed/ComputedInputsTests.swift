import Ripple
import Testing

/// Explicit inputs, as parameter packs: any number of inputs, one or more.
@Suite struct ComputedInputsTests {
    @Test("one input, and twelve (more than Yoyo's ten), in order")
    func counts() {
        let one = Stored(1)
        #expect(Computed(one) { $0 * 2 }.value == 2)

        let values = (0..<12).map { Stored($0) }
        let all = Computed(
            values[0], values[1], values[2], values[3], values[4], values[5],
            values[6], values[7], values[8], values[9], values[10], values[11]
        ) { a, b, c, d, e, f, g, h, i, j, k, l in
            [a, b, c, d, e, f, g, h, i, j, k, l]
        }
        #expect(all.value == Array(0..<12))
        values[11].value = 99
        #expect(all.value.last == 99)
    }

    @Test("inputs of different types, and the dependencies are exactly the inputs")
    func mixedTypes() {
        let name = Stored("Ada"), age = Stored(36), isAdmin = Stored(false)
        let evaluations = InputsCounter()
        let label = Computed(name, age, isAdmin) { name, age, isAdmin in
            evaluations.increment()
            return "\(name) (\(age))\(isAdmin ? " admin" : "")"
        }
        #expect(label.value == "Ada (36)")
        age.value = 37
        #expect(label.value == "Ada (37)")
        #expect(evaluations.value == 2)
    }

    @Test("an Equatable value is cut off by ==; any other counts every evaluation as a change")
    func cutOff() {
        let count = Stored(1)
        let parity = Computed(count) { $0 % 2 }
        let runs = InputsCounter()
        let reaction = observe {
            _ = parity.value
            runs.increment()
        }
        count.value = 3  // parity unchanged: the reaction does not run
        #expect(runs.value == 1)
        count.value = 4
        #expect(runs.value == 2)

        struct Box { let value: Int }  // not Equatable
        let boxed = Computed(count) { Box(value: $0 % 2) }
        let boxRuns = InputsCounter()
        let boxReaction = observe {
            _ = boxed.value
            boxRuns.increment()
        }
        count.value = 6  // same parity, but no equality: the reaction runs
        #expect(boxRuns.value == 2)
        withExtendedLifetime((reaction, boxReaction)) {}
    }
}

/// A counter for closures that must be `@Sendable`.
final class InputsCounter: @unchecked Sendable {
    private let lock = Recorder<Int>()
    func increment() { lock.append(1) }
    var value: Int { lock.all.count }
}
