import Foundation
import RippleStore
import Testing

/// Verge's `derived.sinkState { }.storeWhileSourceActive()`: a subscription kept by its source
/// store rather than by the caller.
@Suite("Derived: storeWhileSourceActive()")
struct DerivedStoreWhileSourceActiveTests {
    @Test("a derived sink whose result is dropped keeps delivering while the store lives")
    func keptByTheStore() {
        let store = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        store.derived(\.count).sinkValue { counts.append($0.current) }.storeWhileSourceActive()
        store.increment()
        store.increment()
        #expect(counts.all == [0, 1, 2])
    }

    @Test("it ends when the store is released, and frees the derived value")
    func endsWithTheStore() {
        var store: TDStore? = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        weak var weakDerived: Derived<Int>?
        do {
            let derived = store!.derived { $0.count * 10 }
            weakDerived = derived
            derived.sinkValue { counts.append($0.current) }.storeWhileSourceActive()
        }
        store!.increment()
        #expect(weakDerived != nil)
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil)
        #expect(weakDerived == nil)
        #expect(counts.all == [0, 10])
    }

    @Test("a chained derived value and a combined one are kept by their stores too")
    func chainedAndCombined() {
        let store = TDStore(initialState: TDState())
        let other = TDStore(initialState: TDState())
        let log = TDLog<String>()
        store.derived(\.profile).derived(\.first).sinkValue { log.append("first \($0.current)") }
            .storeWhileSourceActive()
        combined(store.derived(\.count), other.derived(\.count)).sinkValue { changes in
            log.append("pair \(changes.current.0) \(changes.current.1)")
        }.storeWhileSourceActive()
        store.commit { $0.profile.first = "Ada" }
        other.increment()
        #expect(log.all == ["first ", "pair 0 0", "first Ada", "pair 0 1"])
    }

    @Test("the returned subscription still cancels it")
    func cancelStillWorks() {
        let store = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        let subscription = store.derived(\.count).sinkValue { counts.append($0.current) }.storeWhileSourceActive()
        subscription.cancel()
        store.increment()
        #expect(counts.all == [0])
    }

    @Test("calling it twice is harmless")
    func twice() {
        let store = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        let subscription = store.derived(\.count).sinkValue { counts.append($0.current) }
        subscription.storeWhileSourceActive()
        subscription.storeWhileSourceActive()
        store.increment()
        #expect(counts.all == [0, 1])
    }

    @Test("a store's own sink can be kept by the store as well")
    func storeSink() {
        let store = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        store.sinkState { counts.append($0.count) }.storeWhileSourceActive()
        store.increment()
        #expect(counts.all == [0, 1])
    }

    @Test("two threads handing the same subscription over register it once")
    func handedOverFromTwoThreads() {
        for _ in 0..<200 {
            var store: TDStore? = TDStore(initialState: TDState())
            let counts = TDLog<Int>()
            weak var weakDerived: Derived<Int>?
            do {
                let derived = store!.derived(\.count)
                weakDerived = derived
                let subscription = derived.sinkValue(dropsFirst: true) { counts.append($0.current) }
                DispatchQueue.concurrentPerform(iterations: 2) { _ in subscription.storeWhileSourceActive() }
            }
            store!.increment()
            #expect(counts.all == [1])
            store = nil
            #expect(weakDerived == nil)
        }
    }

    @Test("on a cancelled subscription it does nothing")
    func cancelledFirst() {
        let store = TDStore(initialState: TDState())
        let counts = TDLog<Int>()
        let subscription = store.derived(\.count).sinkValue { counts.append($0.current) }
        subscription.cancel()
        subscription.storeWhileSourceActive()
        store.increment()
        #expect(counts.all == [0])
    }

    @Test("a combined value of a store released before combining: the subscription ends at once")
    func combinedAfterOneStoreWasReleased() {
        var first: TDStore? = TDStore(initialState: TDState())
        let second = TDStore(initialState: TDState())
        let firstCount = first!.derived(\.count)
        weak let weakFirst = first
        first = nil
        #expect(weakFirst == nil)
        let log = TDLog<Int>()
        combined(firstCount, second.derived(\.count)).sinkValue { log.append($0.current.1) }.storeWhileSourceActive()
        second.increment()
        #expect(log.all == [0], "the first of its stores to be released ends it, released before or after")
    }
}
