import Ripple
import RippleStore
import Testing

/// Verge's `accumulate { $0.ifChanged(…).dropFirst(n).do { } }`: a subscriber whose parts each
/// remember the value they saw last.
@Suite("Accumulate")
struct AccumulateTests {
    @Test("the first delivery runs every part with the current values")
    func firstDeliveryRunsEveryPart() {
        let store = TDStore(initialState: TDState(name: "Ada", count: 3))
        let log = TDLog<String>()
        let subscription = store.accumulate {
            $0.ifChanged(\.name).do { log.append("name \($0)") }
            $0.ifChanged(\.count).do { log.append("count \($0)") }
        }
        #expect(log.all == ["name Ada", "count 3"])
        subscription.cancel()
    }

    @Test("a part runs only when its value changed")
    func runsOnlyWhenChanged() {
        let store = TDStore(initialState: TDState())
        let log = TDLog<String>()
        let subscription = store.accumulate {
            $0.ifChanged(\.name).do { log.append("name \($0)") }
            $0.ifChanged({ $0.count % 2 == 0 }).do { log.append("even \($0)") }
        }
        log.removeAll()
        store.commit { $0.flag = true }
        #expect(log.all.isEmpty)
        store.increment()
        #expect(log.all == ["even false"])
        store.rename("Bo")
        #expect(log.all == ["even false", "name Bo"])
        store.commit { $0.count += 2 }
        #expect(log.all == ["even false", "name Bo"])
        subscription.cancel()
        store.rename("Cy")
        #expect(log.count == 2)
    }

    @Test("dropFirst(n) skips the first n changes, the initial value being the first")
    func dropFirst() {
        let store = TDStore(initialState: TDState())
        let one = TDLog<Int>()
        let two = TDLog<Int>()
        let defaulted = TDLog<Int>()
        let subscription = store.accumulate {
            $0.ifChanged(\.count).dropFirst(1).do { one.append($0) }
            $0.ifChanged(\.count).dropFirst(2).do { two.append($0) }
            $0.ifChanged(\.count).dropFirst().do { defaulted.append($0) }
        }
        #expect(one.all.isEmpty)
        store.commit { $0.name = "no count change" }
        store.increment()
        store.increment()
        #expect(one.all == [1, 2])
        #expect(two.all == [2])
        #expect(defaulted.all == [1, 2])
        _ = subscription
    }

    @Test("a part without do runs nothing")
    func withoutDo() {
        let store = TDStore(initialState: TDState())
        let subscription = store.accumulate {
            $0.ifChanged(\.count)
        }
        store.increment()
        #expect(store.currentState.count == 1)
        _ = subscription
    }

    @Test("a branch taken again starts afresh; the state parameter picks it")
    func branches() {
        let store = TDStore(initialState: TDState())
        let log = TDLog<String>()
        let subscription = store.accumulate { builder, state in
            if state.flag {
                builder.ifChanged(\.count).do { log.append("on \($0)") }
            } else {
                builder.ifChanged(\.count).do { log.append("off \($0)") }
            }
        }
        store.commit { $0.flag = true }
        store.increment()
        store.commit { $0.flag = false }
        store.commit { $0.name = "x" }
        #expect(log.all == ["off 0", "on 0", "on 1", "off 1"])
        _ = subscription
    }

    @Test("optional parts and parts in a loop keep their own memory")
    func optionalAndLoops() {
        let store = TDStore(initialState: TDState())
        let log = TDLog<String>()
        let subscription = store.accumulate { builder, state in
            if !state.flag {
                builder.ifChanged(\.name).do { log.append("name \($0)") }
            }
            for key in ["a", "b"] {
                builder.ifChanged({ key == "a" ? $0.a : $0.b }).do { log.append("\(key) \($0)") }
            }
        }
        #expect(log.all == ["name ", "a 0", "b 0"])
        store.commit { $0.b = 1 }
        #expect(log.all == ["name ", "a 0", "b 0", "b 1"])
        _ = subscription
    }

    @Test("accumulateOnMainActor runs the parts on the main actor")
    @MainActor func onMainActor() {
        let store = TDStore(initialState: TDState())
        var seen: [Int] = []
        let subscription = store.accumulateOnMainActor {
            $0.ifChanged(\.count).do { count in
                MainActor.assertIsolated()
                seen.append(count)
            }
        }
        store.increment()
        #expect(seen == [0, 1])
        _ = subscription
    }

    @Test("a part over an optional value that starts nil runs in the first delivery")
    func optionalPartStartingNilRunsFirst() {
        let store = TDStore(initialState: TDState())
        let log = TDLog<String>()
        let subscription = store.accumulate {
            $0.ifChanged(\.nickname).do { log.append("nickname \($0 ?? "nil")") }
        }
        #expect(log.all == ["nickname nil"])
        store.rename("Ada")
        store.rename("")
        #expect(log.all == ["nickname nil", "nickname Ada", "nickname nil"])
        subscription.cancel()
    }

    @Test("dropFirst() counts that first delivery of a nil value")
    func optionalPartDropFirstCountsTheFirstDelivery() {
        let store = TDStore(initialState: TDState())
        let log = TDLog<String>()
        let subscription = store.accumulate {
            $0.ifChanged(\.nickname).dropFirst().do { log.append("nickname \($0 ?? "nil")") }
        }
        #expect(log.all == [])
        store.rename("Ada")
        #expect(log.all == ["nickname Ada"])
        subscription.cancel()
    }
}

extension TDState {
    /// The name, or `nil` when it is empty: an optional for the accumulation tests.
    var nickname: String? { name.isEmpty ? nil : name }
}
