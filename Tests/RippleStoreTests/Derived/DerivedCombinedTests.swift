import RippleStore
import Testing

/// Issue 10 item 5: `combined` emits once per commit with a consistent pair (Verge's emits a
/// half-updated pair first).
@Suite("combined: one consistent pair per commit")
struct DerivedCombinedTests {
    @Test("a and b committed together: every delivery has a == b, one delivery per commit")
    func consistentPairOncePerCommit() {
        let store = TDStore(initialState: TDState())
        let pair = combined(store.derived(\.a), store.derived(\.b))
        let deliveries = TDLog<(Int, Int)>()
        let subscription = pair.sinkValue { changes in deliveries.append(changes.current) }
        let commits = 100
        for _ in 0..<commits {
            store.commit {
                $0.a += 1; $0.b += 1
            }
        }
        let all = deliveries.all
        #expect(
            all.count == commits + 1, "combined emitted \(all.count) times for \(commits) commits and the first value")
        #expect(all.allSatisfy { $0.0 == $0.1 }, "combined emitted a mixed pair: \(all.filter { $0.0 != $0.1 })")
        #expect(all.map(\.0) == Array(0...commits))
        subscription.cancel()
    }

    @Test("a commit that changes one input emits once; a commit that changes neither emits nothing")
    func emitsOnlyForItsInputs() {
        let store = TDStore(initialState: TDState())
        let pair = combined(store.derived(\.count), store.derived(\.name))
        let deliveries = TDLog<String>()
        let subscription = pair.sinkValue { changes in
            let (count, name) = changes.current
            deliveries.append("\(name)\(count)")
        }
        store.increment()
        store.commit { $0.a = 9 }
        store.rename("Ada")
        store.commit {
            $0.count = 5; $0.name = "Bo"
        }
        #expect(deliveries.all == ["0", "1", "Ada1", "Bo5"])
        subscription.cancel()
    }

    @Test("combined of three derived values, one of them a closure derived")
    func threeValues() {
        let store = TDStore(initialState: TDState())
        let triple = combined(store.derived(\.a), store.derived(\.b), store.derived { $0.a + $0.b })
        let readerRuns = TDCounter()
        let seen = TDLog<Bool>()
        let subscription = observe {
            readerRuns.increment()
            let (a, b, sum) = triple.value
            seen.append(a + b == sum)
        }
        store.commit {
            $0.a = 1; $0.b = 2
        }
        store.commit {
            $0.a = 2; $0.b = 1
        }
        store.rename("x")
        #expect(readerRuns.value == 3)
        #expect(seen.all == [true, true, true])
        subscription.cancel()
    }

    @Test("under commits from 2 threads every delivery is a consistent pair, in order, once per commit")
    func consistentPairUnderConcurrentCommits() {
        let store = TDStore(initialState: TDState())
        let pair = combined(store.derived(\.a), store.derived(\.b))
        let deliveries = TDLog<(Int, Int)>()
        let subscription = pair.sinkValue { changes in deliveries.append(changes.current) }
        let perThread = 300
        runOnThreads(2) { _ in
            for _ in 0..<perThread {
                store.commit {
                    $0.a += 1; $0.b += 1
                }
            }
        }
        let all = deliveries.all
        #expect(all.count == 2 * perThread + 1)
        #expect(all.allSatisfy { $0.0 == $0.1 })
        #expect(all.map(\.0) == Array(0...(2 * perThread)))
        subscription.cancel()
    }
}
