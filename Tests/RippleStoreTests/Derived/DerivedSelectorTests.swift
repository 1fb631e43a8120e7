import RippleStore
import Testing

/// Issue 10 item 5: derived selectors, memoized, with an equality cut-off.
@Suite("Derived selectors")
struct DerivedSelectorTests {
    @Test("derived(\\.path) follows its key path and wakes its readers only when it changed")
    func keyPathDerived() {
        let store = TDStore(initialState: TDState())
        let count = store.derived(\.count)
        let runs = TDCounter()
        let seen = TDLog<Int>()
        let subscription = observe {
            runs.increment()
            seen.append(count.value)
        }
        store.rename("Ada")
        #expect(runs.value == 1, "a name commit woke a reader of derived(\\.count)")
        store.increment()
        store.increment()
        #expect(count.value == 2)
        #expect(seen.all == [0, 1, 2])
        subscription.cancel()
    }

    @Test("derived(from:) runs its closure only when one of its inputs changed")
    func declaredInputsMemoize() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let sum = store.derived(from: \.a, \.b) { a, b in
            runs.increment()
            return a + b
        }
        #expect(sum.value == 0)
        #expect(runs.value == 1)

        store.rename("Ada")
        store.increment()
        store.commit { $0.profile.first = "x" }
        #expect(sum.value == 0)
        #expect(runs.value == 1, "the closure ran for commits that changed none of its inputs")

        store.commit { $0.a = 2 }
        #expect(sum.value == 2)
        #expect(runs.value == 2)
        store.commit { $0.b = 3 }
        #expect(sum.value == 5)
        #expect(runs.value == 3)
        store.commit {
            $0.a = 4; $0.b = 5
        }
        #expect(sum.value == 9)
        #expect(runs.value == 4)
        // Reading again without a commit costs nothing.
        _ = sum.value
        #expect(runs.value == 4)
    }

    @Test("derived(from:) observed: closure and reader run once per commit that changed an input")
    func declaredInputsObserved() {
        let store = TDStore(initialState: TDState())
        let closureRuns = TDCounter()
        let readerRuns = TDCounter()
        let sum = store.derived(from: \.a, \.b) { a, b in
            closureRuns.increment()
            return a + b
        }
        let subscription = observe {
            readerRuns.increment()
            _ = sum.value
        }
        for i in 1...10 {
            store.rename("n\(i)")
            store.commit { $0.a = i }
        }
        #expect(closureRuns.value == 11)
        #expect(readerRuns.value == 11)
        subscription.cancel()
    }

    @Test("derived { state in } runs only when a key path it read changed, following what it reads")
    func closureDerivedTracksItsReads() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let picked = store.derived { state -> Int in
            runs.increment()
            return state.flag ? state.a : state.b
        }
        #expect(picked.value == 0)
        #expect(runs.value == 1)

        store.rename("Ada")
        store.increment()
        store.commit { $0.a = 1 }  // not read while flag is false
        #expect(picked.value == 0)
        #expect(runs.value == 1, "derived { } ran for a commit that changed nothing it read")

        store.commit { $0.b = 2 }
        #expect(picked.value == 2)
        #expect(runs.value == 2)

        store.commit { $0.flag = true }
        #expect(picked.value == 1)
        #expect(runs.value == 3)

        store.commit { $0.b = 3 }  // no longer read
        #expect(picked.value == 1)
        #expect(runs.value == 3)
    }

    @Test("derived(from:) with one input takes a closure or a function reference")
    func oneInput() {
        let store = TDStore(initialState: TDState())
        let doubled = store.derived(from: \.count) { $0 * 2 }
        let described = store.derived(from: \.count, transform: String.init(describing:))
        let twice = store.derived(from: \.count, transform: Self.twice)
        let both = store.derived(from: \.count, \.name) { count, name in "\(name) \(count)" }
        store.increment()
        store.rename("Ada")
        #expect(doubled.value == 2)
        #expect(described.value == "1")
        #expect(twice.value == 2)
        #expect(both.value == "Ada 1")
    }

    static func twice(_ value: Int) -> Int { value * 2 }

    @Test("equal output cuts off: the closure runs, its readers do not")
    func outputEqualityCutOff() {
        let store = TDStore(initialState: TDState())
        let closureRuns = TDCounter()
        let readerRuns = TDCounter()
        let parity = store.derived(from: \.count) { count in
            closureRuns.increment()
            return count % 2
        }
        let closureParity = store.derived { state in state.count % 2 }
        let closureReaderRuns = TDCounter()
        let subscription = observe {
            readerRuns.increment()
            _ = parity.value
        }
        let closureSubscription = observe {
            closureReaderRuns.increment()
            _ = closureParity.value
        }
        store.commit { $0.count = 2 }
        store.commit { $0.count = 4 }
        #expect(closureRuns.value == 3)
        #expect(readerRuns.value == 1, "a reader ran although the derived output stayed equal")
        #expect(closureReaderRuns.value == 1)
        store.commit { $0.count = 5 }
        #expect(readerRuns.value == 2)
        #expect(closureReaderRuns.value == 2)
        subscription.cancel()
        closureSubscription.cancel()
    }

    @Test("derived of derived: key path and closure forms, each cut off")
    func derivedOfDerived() {
        let store = TDStore(initialState: TDState())
        let profile = store.derived(\.profile)
        let first = profile.derived(\.first)
        let transformRuns = TDCounter()
        let initial = first.derived { name -> String in
            transformRuns.increment()
            return String(name.prefix(1))
        }
        let firstReaderRuns = TDCounter()
        let initials = TDLog<String>()
        let firstReader = observe {
            firstReaderRuns.increment()
            _ = first.value
        }
        let initialReader = observe { initials.append(initial.value) }
        #expect(transformRuns.value == 1)

        store.commit { $0.profile.last = "Lovelace" }
        #expect(firstReaderRuns.value == 1, "a reader of profile.first ran for a change of profile.last")
        #expect(transformRuns.value == 1)

        store.commit { $0.profile.first = "Ada" }
        store.commit { $0.profile.first = "Alan" }  // same initial
        store.commit { $0.profile.first = "Grace" }
        store.rename("x")
        #expect(firstReaderRuns.value == 4)
        #expect(transformRuns.value == 4)
        #expect(initials.all == ["", "A", "G"])
        #expect(first.value == "Grace")
        #expect(profile.value == TDProfile(first: "Grace", last: "Lovelace"))
        withExtendedLifetime((firstReader, initialReader)) {}
    }

    @Test("sinkValue delivers the current value, then each change, with previous and a delivery count")
    func sinkValueDelivers() {
        let store = TDStore(initialState: TDState())
        let deliveries = TDLog<Changes<Int>>()
        let subscription = store.derived(\.count).sinkValue { deliveries.append($0) }
        store.rename("Ada")
        store.increment()
        store.increment()
        let all = deliveries.all
        #expect(all.map(\.current) == [0, 1, 2])
        #expect(all.map(\.previous) == [nil, 0, 1])
        #expect(all.map(\.version) == [0, 1, 2])
        #expect(all[0].hasChanges)
        #expect(all[1].hasChanges)
        subscription.cancel()
        store.increment()
        #expect(deliveries.count == 3, "a cancelled sinkValue still delivered")
    }

    @Test("sinkValue(dropsFirst:) skips the current value only")
    func sinkValueDropsFirst() {
        let store = TDStore(initialState: TDState(count: 5))
        let values = TDLog<Int>()
        let subscription = store.derived(\.count).sinkValue(dropsFirst: true) { values.append($0.current) }
        #expect(values.all == [])
        store.increment()
        #expect(values.all == [6])
        subscription.cancel()
    }
}
