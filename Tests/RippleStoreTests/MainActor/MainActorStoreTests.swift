import Ripple
import RippleStore
import Testing

/// A main-actor store's state.
private struct MainCounter: Equatable {
    var count = 0
    var name = ""
}

private final class MainCounterStore: MainActorStore<MainCounter, String> {
    func increment() { commit("increment") { $0.count += 1 } }
}

@MainActor
@Suite("MainActorStore")
struct MainActorStoreTests {
    @Test("a derived value's sinkValue gets the current value, then each change, with the previous one")
    func derivedSinkValue() {
        let store = MainCounterStore(initialState: MainCounter())
        var seen: [String] = []
        let subscription = store.derived(\.count).sinkValue { changes in
            seen.append("\(changes.previous.map { "\($0)" } ?? "-")→\(changes.current) v\(changes.version)")
        }
        store.increment()
        store.commit { $0.name = "Ada" }  // another field: no delivery
        store.increment()
        #expect(seen == ["-→0 v0", "0→1 v1", "1→2 v2"])
        var later: [Int] = []
        let dropping = store.derived(\.count).sinkValue(dropsFirst: true) { later.append($0.current) }
        store.increment()
        #expect(later == [3])
        withExtendedLifetime((subscription, dropping)) {}
    }

    @Test("a binding reads one field, tracks only it, and commits what is written")
    func binding() {
        var store: MainCounterStore? = MainCounterStore(initialState: MainCounter())
        let name = store!.binding(\.name)
        var runs = 0
        let reaction = observeOnMainActor {
            _ = name.value
            runs += 1
        }
        var transactions: [String?] = []
        let sink = store!.sinkState { changes in transactions.append(changes.transaction.name) }
        store!.increment()
        #expect(runs == 1, "a commit to another field ran the binding's reader")
        name.value = "Ada"
        #expect(store!.currentState.name == "Ada")
        #expect(runs == 2)
        #expect(transactions.last == "binding \\MainCounter.name")
        var seen: [String] = []
        let echo = name.didChange { old, new in seen.append("\(old)→\(new)") }
        store!.commit { $0.name = "Grace" }
        #expect(seen == ["Ada→Grace"])
        withExtendedLifetime((reaction, sink, echo)) {}
        store = nil
        name.value = "dropped"
        #expect(name.value == "Grace")
    }

    @Test("a commit inside a sink is applied at once and delivered after, to everyone, in order")
    func commitInsideSinkIsDeliveredAfter() {
        let store = MainCounterStore(initialState: MainCounter())
        var log: [String] = []
        let first = store.sinkState { changes in
            log.append("a\(changes.count)")
            if changes.count == 1 {
                let applied = store.commit { state -> Int in
                    state.count += 1
                    return state.count
                }
                // Applied at once: the next commit builds on it.
                let next = store.commit { state -> Int in
                    state.count += 1
                    return state.count
                }
                log.append("commit\(applied),\(next)")
            }
        }
        let second = store.sinkState { changes in log.append("b\(changes.count)") }
        store.increment()
        #expect(log == ["a0", "b0", "a1", "commit2,3", "b1", "a2", "b2", "a3", "b3"])
        #expect(store.currentState.count == 3)
        #expect(store.version == 3)
        _ = (first, second)
    }

    @Test("a commit that leaves an equal state publishes and delivers nothing")
    func equalStateIsNotDelivered() {
        let store = MainCounterStore(initialState: MainCounter())
        var deliveries = 0
        let sink = store.sinkState(dropsFirst: true) { _ in deliveries += 1 }
        store.commit { $0.count = 0 }
        store.commit { $0.name = "" }
        #expect(deliveries == 0)
        #expect(store.version == 0)
        store.increment()
        #expect(deliveries == 1)
        _ = sink
    }

    @Test("changes tell what changed since the subscriber's previous delivery")
    func changesIfChanged() {
        let store = MainCounterStore(initialState: MainCounter())
        var names: [String] = []
        var counts: [Int] = []
        var transactions: [String] = []
        let sink = store.sinkState { changes in
            changes.ifChanged(\.name) { names.append($0) }
            changes.ifChanged(\.count) { counts.append($0) }
            transactions.append(changes.transaction.name ?? "-")
        }
        store.increment()
        store.commit("rename") { $0.name = "Ada" }
        #expect(names == ["", "Ada"])
        #expect(counts == [0, 1])
        #expect(transactions == ["initial state", "increment", "rename"])
        _ = sink
    }

    @Test("derived(from:) with one input takes a closure or a function reference, beside the variadic form")
    func oneInputDerived() {
        let store = MainCounterStore(initialState: MainCounter())
        let doubled = store.derived(from: \.count) { $0 * 2 }
        let described = store.derived(from: \.count, transform: String.init(describing:))
        let both = store.derived(from: \.count, \.name) { count, name in "\(name) \(count)" }
        store.increment()
        store.commit { $0.name = "Ada" }
        #expect(doubled.value == 2)
        #expect(described.value == "1")
        #expect(both.value == "Ada 1")
    }

    @Test("state reads are tracked per key path; derived values run only when their input changed")
    func trackedPerKeyPath() {
        let store = MainCounterStore(initialState: MainCounter())
        var countRuns = 0
        var transformRuns = 0
        let reaction = observeOnMainActor {
            _ = store.state.count
            countRuns += 1
        }
        let doubled = store.derived(from: \.count) { count in
            transformRuns += 1
            return count * 2
        }
        let title = store.derived { state in "\(state.name) \(state.count)" }
        #expect(doubled.value == 0)
        store.commit { $0.name = "Ada" }
        #expect(countRuns == 1)
        #expect(doubled.value == 0)
        #expect(transformRuns == 1)
        #expect(title.value == "Ada 0")
        store.increment()
        #expect(countRuns == 2)
        #expect(doubled.value == 2)
        #expect(transformRuns == 2)
        #expect(store.derived(\.count) === store.derived(\.count))
        _ = reaction
    }

    @Test("activities reach main-actor subscribers; one sent inside a subscriber comes after")
    func activities() {
        let store = MainCounterStore(initialState: MainCounter())
        var log: [String] = []
        let first = store.sinkActivity { activity in
            log.append("a:\(activity)")
            if activity == "one" { store.send("two") }
        }
        let second = store.sinkActivity { activity in log.append("b:\(activity)") }
        store.send("one")
        #expect(log == ["a:one", "b:one", "a:two", "b:two"])
        second.cancel()
        store.send("three")
        #expect(log.last == "a:three")
        _ = first
    }

    @Test("subscriptions and derived values do not keep the store alive; its release ends the subscriptions")
    func lifetime() {
        final class Token {}
        var store: MainCounterStore? = MainCounterStore(initialState: MainCounter())
        weak let released = store
        var token: Token? = Token()
        weak let sinkToken = token
        var deliveries = 0
        let sink = store!.sinkState { [token] _ in
            _ = token
            deliveries += 1
        }
        let activity = store!.sinkActivity { [token] _ in _ = token }
        token = nil
        let count = store!.derived(\.count)
        store!.increment()
        #expect(count.value == 1)
        #expect(sinkToken != nil)
        store = nil
        // The store is gone, and its subscribers with it (they held the only token).
        #expect(released == nil)
        #expect(sinkToken == nil)
        #expect(count.value == 1)
        #expect(deliveries == 2)
        _ = (sink, activity)
    }

    @Test("a commit inside another commit's mutation stops with a message naming the store")
    func nestedCommitStops() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                await MainActor.run {
                    let store = MainCounterStore(initialState: MainCounter(), name: "nested")
                    store.commit { _ in store.increment() }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("inside the mutation of another commit"))
        #expect(message.contains("nested"))
    }
}
