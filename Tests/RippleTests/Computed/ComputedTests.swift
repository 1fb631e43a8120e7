import Testing
@testable import Ripple

@Suite("Computed")
struct ComputedTests {
    @Test("is lazy: nothing is evaluated until read")
    func lazy() {
        let source = Stored(1)
        let evaluations = Counter()
        let doubled = Computed {
            evaluations.increment(); return source.value * 2
        }
        #expect(evaluations.value == 0)
        source.value = 2
        #expect(evaluations.value == 0)
        #expect(doubled.value == 4)
        #expect(evaluations.value == 1)
    }

    @Test("is cached: a second read without a change does no work")
    func cached() {
        let source = Stored(1)
        let evaluations = Counter()
        let doubled = Computed {
            evaluations.increment(); return source.value * 2
        }
        _ = doubled.value
        _ = doubled.value
        #expect(evaluations.value == 1)
        source.value = 5
        #expect(doubled.value == 10)
        _ = doubled.value
        #expect(evaluations.value == 2)
    }

    @Test("is cut off by equality: an equal result runs nothing downstream")
    func equalityCutOff() {
        let source = Stored(1)
        let parity = Computed { source.value % 2 }
        let downstream = Counter()
        let label = Computed {
            downstream.increment(); return "parity \(parity.value)"
        }
        let runs = Counter()
        let subscription = observe {
            _ = label.value; runs.increment()
        }
        source.value = 3
        #expect(downstream.value == 1)
        #expect(runs.value == 1)
        source.value = 4
        #expect(downstream.value == 2)
        #expect(runs.value == 2)
        subscription.cancel()
    }

    @Test("re-tracks its dependencies: a branch no longer read no longer triggers it")
    func branchSwitching() {
        let useA = Stored(true)
        let a = Stored(1)
        let b = Stored(10)
        let evaluations = Counter()
        let picked = Computed {
            evaluations.increment(); return useA.value ? a.value : b.value
        }
        let subscription = observe { _ = picked.value }
        #expect(evaluations.value == 1)
        b.value = 11
        #expect(evaluations.value == 1, "b is not read yet")
        useA.value = false
        #expect(picked.value == 11)
        #expect(evaluations.value == 2)
        a.value = 2
        #expect(evaluations.value == 2, "a is no longer read")
        b.value = 12
        #expect(evaluations.value == 3)
        subscription.cancel()
    }

    @Test("explicit inputs, one to six")
    func explicitInputs() {
        let a = Stored(1), b = Stored(2), c = Stored(3), d = Stored(4), e = Stored(5), f = Stored(6)
        #expect(Computed(a) { $0 * 10 }.value == 10)
        #expect(Computed(a, b) { $0 + $1 }.value == 3)
        #expect(Computed(a, b, c) { $0 + $1 + $2 }.value == 6)
        #expect(Computed(a, b, c, d) { $0 + $1 + $2 + $3 }.value == 10)
        #expect(Computed(a, b, c, d, e) { $0 + $1 + $2 + $3 + $4 }.value == 15)
        let all = Computed(a, b, c, d, e, f) { $0 + $1 + $2 + $3 + $4 + $5 }
        #expect(all.value == 21)
        f.value = 60
        #expect(all.value == 75)
        let label = Computed(a, b) { loggedIn, clicked in "\(loggedIn) \(clicked)" }
        #expect(label.value == "1 2")
    }

    @Test("a computed value of a non-Equatable type notifies on every re-evaluation")
    func nonEquatableComputed() {
        struct Box: Sendable { var value: Int }
        let source = Stored(1)
        let boxed = Computed { Box(value: source.value % 2) }
        let runs = Counter()
        let subscription = observe {
            _ = boxed.value; runs.increment()
        }
        source.value = 3
        #expect(runs.value == 2)
        subscription.cancel()
    }

    @Test("a computed value read at top level is current after every write")
    func unobservedReadsAreCurrent() {
        let a = Stored(1)
        let b = Computed { a.value + 1 }
        let c = Computed { b.value * 2 }
        #expect(c.value == 4)
        a.value = 10
        #expect(c.value == 22)
        #expect(b.value == 11)
    }
}
