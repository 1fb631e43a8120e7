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
}
