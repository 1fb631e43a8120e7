import Ripple
import RippleStore
import Testing

/// `StateFields` on the main-actor store: a commit looks only at the readers under the fields
/// it changed (the same states as `StateFieldsTests`).
@MainActor
@Suite("MainActorStore: StateFields")
struct MainActorStoreStateFieldsTests {
    @Test("a commit to one field reads no key path under the other fields")
    func unreadFieldsAreNotLookedAt() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        let reads = SFReads()
        var seen: [Int] = []
        var subscriptions: [Subscription] = []
        for i in 0..<8 {
            let path = \SFState.items[counted: i, by: reads]
            subscriptions.append(observeOnMainActor { seen.append(store.state[dynamicMember: path]) })
        }
        reads.reset()
        seen.removeAll()
        for _ in 0..<50 { store.commit { $0.count += 1 } }
        store.commit { $0.profile.first = "Grace" }
        #expect(reads.value == 0, "commits to other fields re-read the readers of items")
        store.commit { $0.items[3] += 1 }
        #expect(reads.value == 8, "a commit to items reads each of its 8 readers once")
        #expect(seen == [1])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a reader made inside a delivery sees the commit waiting to be published")
    func readerMadeDuringADelivery() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        var made: [Subscription] = []
        var seen: [String] = []
        let trigger = observeOnMainActor {
            // On the count's first change: commit to items (published after this round), then
            // read items through a new reader before that commit is published.
            if store.state.count == 1 {
                store.commit { $0.items[0] = 7 }
                made.append(
                    observeOnMainActor { seen.append("items[0] = \(store.state[dynamicMember: \SFState.items[0]])") })
            }
        }
        store.commit { $0.count = 1 }
        #expect(seen == ["items[0] = 0", "items[0] = 7"])
        #expect(store.currentState.items[0] == 7)
        withExtendedLifetime((trigger, made)) {}
    }

    @Test(
        "random commits: every reader matches the state, as in a plain store",
        arguments: [5, 23] as [UInt64])
    func randomAgainstThePlainState(seed: UInt64) {
        var random = CoreLCG(seed: seed)
        let fielded = MainActorStore<SFState, Never>(initialState: SFState())
        let items = (0..<8).map { i in fielded.derived(\SFState.items[i]) }
        let first = fielded.derived(\SFState.profile.first)
        let total = fielded.derived(\SFState.total)
        var expected = SFState()
        for step in 0..<200 {
            let amount = Int.random(in: 1...3, using: &random)
            let index = Int.random(in: 0..<8, using: &random)
            switch Int.random(in: 0...3, using: &random) {
            case 0:
                fielded.commit { $0.count += amount }
                expected.count += amount
            case 1:
                fielded.commit { $0.items[index] += amount }
                expected.items[index] += amount
            case 2:
                fielded.commit { $0.profile.first = "f\(amount)" }
                expected.profile.first = "f\(amount)"
            default:
                fielded.commit { $0.itemsCount = amount }
                expected.itemsCount = amount
            }
            #expect(items.map(\.value) == expected.items, "step \(step)")
            #expect(first.value == expected.profile.first, "step \(step)")
            #expect(total.value == expected.total, "step \(step)")
        }
    }

    // A commit's state and its fields are published in one batch: a reader of both sees one
    // state and runs once (before, the whole state was written first, and the fields after).

    @Test("a subscriber reads, through store.state, the state it is delivered")
    func subscriberReadsTheDeliveredState() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        var mismatches: [String] = []
        let subscription = store.sinkState { changes in
            let read = store.state.count
            if read != changes.current.count { mismatches.append("delivered \(changes.current.count), read \(read)") }
        }
        store.commit { $0.count = 1 }
        store.commit { $0.count = 2 }
        #expect(mismatches == [])
        withExtendedLifetime(subscription) {}
    }

    @Test("a reader of a field and of the version runs once per commit and sees one state")
    func fieldAndVersionReaderRunsOnce() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        var seen: [String] = []
        let reader = observeOnMainActor { seen.append("count \(store.state.count) at version \(store.version)") }
        store.commit { $0.count = 1 }
        #expect(seen == ["count 0 at version 0", "count 1 at version 1"])
        withExtendedLifetime(reader) {}
    }

    @Test("a derived value of a field and currentState, read together, never disagree")
    func derivedFieldAndCurrentStateAgree() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        let count = store.derived(\.count)
        var mixes: [String] = []
        var runs = 0
        let reader = observeOnMainActor {
            runs += 1
            let derived = count.value
            let whole = store.currentState.count
            if derived != whole { mixes.append("derived \(derived), currentState \(whole)") }
        }
        for i in 1...3 { store.commit { $0.count = i } }
        #expect(mixes == [])
        #expect(runs == 4)
        withExtendedLifetime(reader) {}
    }

    @Test("a commit made inside a subscriber is published as one state too")
    func commitInsideASubscriber() {
        let store = MainActorStore<SFState, Never>(initialState: SFState())
        var mixes: [String] = []
        let trigger = store.sinkState(dropsFirst: true) { changes in
            if changes.current.count == 1 { store.commit { $0.count = 2 } }
        }
        let reader = observeOnMainActor {
            let field = store.state.count
            let whole = store.currentState.count
            if field != whole { mixes.append("state.count \(field), currentState.count \(whole)") }
        }
        store.commit { $0.count = 1 }
        #expect(mixes == [])
        withExtendedLifetime((trigger, reader)) {}
    }
}
