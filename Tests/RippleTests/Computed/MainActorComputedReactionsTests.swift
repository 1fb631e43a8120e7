import Testing
@testable import Ripple

@Suite("A MainActorComputed's handlers, as a Computed has them")
@MainActor
struct MainActorComputedReactionsTests {
    @Test("onChange calls the handler on each change, not at once, with the old and new value")
    func onChange() {
        let basket = Basket()
        var changes: [String] = []
        let subscription = basket.total.onChange { old, new in changes.append("\(old)→\(new)") }
        #expect(changes.isEmpty)
        basket.prices.value.append(4)
        basket.prices.value = [10]
        basket.currency = "$"  // not tracked: no change
        #expect(changes == ["6→10"], "an equal value is no change")
        subscription.cancel()
        basket.prices.value = [1]
        #expect(changes == ["6→10"])
    }

    @Test("when fires once, at once if the predicate already holds")
    func when() {
        let basket = Basket()
        var fired: [Int] = []
        let waiting = basket.total.when({ $0 > 8 }) { fired.append($0) }
        #expect(fired.isEmpty)
        basket.prices.value.append(4)
        basket.prices.value.append(5)
        #expect(fired == [10])
        let already = basket.total.when({ $0 > 8 }) { fired.append($0 * 100) }
        #expect(fired == [10, 1500])
        waiting.cancel()
        already.cancel()
    }

    @Test("dependencies lists what it reads")
    func dependencies() {
        let basket = Basket()
        _ = basket.total.value
        let snapshot = basket.total.dependencies
        #expect(snapshot.nodes.count == 2)
    }

    @Test("observeOnMainActor(named:) names the reaction in traces")
    func namedReaction() {
        let basket = Basket()
        var seen: [Int] = []
        let badge = observeOnMainActor(named: "badge") { seen.append(basket.total.value) }
        let owned = observeOnMainActor(named: "owned badge", owner: basket) { basket in seen.append(-basket.total.value)
        }
        #expect(seen == [6, -6])
        basket.prices.value = [2]
        #expect(seen == [6, -6, 2, -2])
        #expect("\(badge.dependencies!)".contains("badge"))
        #expect("\(owned.dependencies!)".contains("owned badge"))
        badge.cancel()
        owned.cancel()
    }
}
