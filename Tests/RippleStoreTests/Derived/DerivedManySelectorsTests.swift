import RippleStore
import Testing

struct TDManyState: Equatable, Sendable {
    var values = [Int](repeating: 0, count: 1000)
    var table: [String: Int] = [:]
    var other = 0
}

/// Issue 10 item 5: only the selectors whose input changed re-run.
@Suite("1000 derived selectors: a commit re-runs only the affected one")
struct DerivedManySelectorsTests {
    @Test("1000 derived(from: \\.values[i]): a commit touching values[500] runs one closure and one reader")
    func onlyTheAffectedSelectorReRuns() {
        let store = Store<TDManyState, Never>(initialState: TDManyState())
        let ran = TDLog<Int>()
        let selectors = (0..<1000).map { index in
            store.derived(from: \TDManyState.values[index]) { value in
                ran.append(index)
                return value * 10
            }
        }
        let readersRan = TDLog<Int>()
        let readers = selectors.enumerated().map { index, selector in
            observe {
                _ = selector.value
                readersRan.append(index)
            }
        }
        #expect(ran.count == 1000)
        #expect(readersRan.count == 1000)
        ran.removeAll()
        readersRan.removeAll()

        store.commit { $0.values[500] = 1 }
        #expect(ran.all == [500], "closures that ran: \(ran.count)")
        #expect(readersRan.all == [500], "readers that ran: \(readersRan.count)")
        #expect(selectors[500].value == 10)

        store.commit { $0.other = 1 }
        store.commit {
            $0.values[7] = 2; $0.values[999] = 3
        }
        #expect(ran.all.sorted() == [7, 500, 999])
        #expect(readersRan.all.sorted() == [7, 500, 999])
        withExtendedLifetime(readers) {}
    }

    @Test("1000 derived selectors on dictionary keys: a commit touching one key runs one closure")
    func dictionaryKeysClosureDerived() {
        let keys = (0..<1000).map { "k\($0)" }
        var initial = TDManyState()
        for key in keys { initial.table[key] = 0 }
        let store = Store<TDManyState, Never>(initialState: initial)
        let ran = TDLog<String>()
        let selectors = keys.map { key in
            store.derived(from: \TDManyState.table[key]) { value -> Int in
                ran.append(key)
                return value ?? -1
            }
        }
        for selector in selectors { _ = selector.value }
        #expect(ran.count == 1000)
        ran.removeAll()

        store.commit { $0.table["k42"] = 1 }
        for selector in selectors { _ = selector.value }
        #expect(ran.all == ["k42"], "closures that ran: \(ran.count)")
        #expect(selectors[42].value == 1)
    }

    @Test(
        "a closure derived reading state.table[key] tracks the whole table (its outermost Equatable value, as documented)"
    )
    func closureDerivedTracksOutermostValue() {
        var initial = TDManyState()
        initial.table = ["x": 0, "y": 0]
        let store = Store<TDManyState, Never>(initialState: initial)
        let ran = TDLog<String>()
        let selectors = ["x", "y"].map { key in
            store.derived { state -> Int in
                ran.append(key)
                return state.table[key] ?? -1
            }
        }
        for selector in selectors { _ = selector.value }
        ran.removeAll()
        store.commit { $0.other = 1 }
        for selector in selectors { _ = selector.value }
        #expect(ran.all == [])
        store.commit { $0.table["x"] = 1 }
        for selector in selectors { _ = selector.value }
        #expect(ran.all.sorted() == ["x", "y"])
        #expect(selectors.map(\.value) == [1, 0])
    }
}
