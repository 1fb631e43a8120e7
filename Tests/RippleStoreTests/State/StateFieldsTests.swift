import Foundation
import RippleStore
import Testing

// A state that lists its fields (`StateFields`), and a plain twin: the same readers must see
// the same values in both, and a commit must look only at the readers under the fields it
// changed.

struct SFProfile: Equatable, Sendable {
    var first = ""
    var last = ""
}

/// Counts the reads made through `Array[counted:by:]` key paths (a key path's subscript
/// arguments must be `Hashable`: compared by identity).
final class SFReads: Hashable, @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0
    func increment() { lock.withLock { storage += 1 } }
    var value: Int { lock.withLock { storage } }
    func reset() { lock.withLock { storage = 0 } }
    static func == (lhs: SFReads, rhs: SFReads) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Array where Element == Int {
    /// The element at `index`, counting the read.
    subscript(counted index: Int, by reads: SFReads) -> Int {
        reads.increment()
        return self[index]
    }
}

/// The fields every test state has; `items` and `itemsCount` share a prefix on purpose.
protocol SFFields: Equatable, Sendable {
    init()
    var count: Int { get set }
    var name: String { get set }
    var items: [Int] { get set }
    var itemsCount: Int { get set }
    var profile: SFProfile { get set }
    var optional: SFProfile? { get set }
}

struct SFState: StateFields, SFFields {
    var count = 0
    var name = ""
    var items = Array(repeating: 0, count: 8)
    var itemsCount = 0
    var profile = SFProfile()
    var optional: SFProfile?
    var total: Int { items.reduce(0, +) }

    static let stateFields: [StateField<SFState>] = [
        StateField(\.count), StateField(\.name), StateField(\.items), StateField(\.itemsCount),
        StateField(\.profile), StateField(\.optional),
    ]
}

struct SFPlainState: SFFields {
    var count = 0
    var name = ""
    var items = Array(repeating: 0, count: 8)
    var itemsCount = 0
    var profile = SFProfile()
    var optional: SFProfile?
    var total: Int { items.reduce(0, +) }
}

/// A state whose fields are odd on purpose: one subscripted element (its printed key path
/// reads the same as any other element's) and one computed property.
struct SFOddState: StateFields {
    var items = Array(repeating: 0, count: 4)
    var count = 0
    var doubled: Int { count * 2 }

    static let stateFields: [StateField<SFOddState>] = [StateField(\.items[0]), StateField(\.doubled)]
}

@Suite("StateFields: a commit reaches only the readers of the fields it changed")
struct StateFieldsTests {
    @Test("a commit to one field reads no key path under the other fields")
    func unreadFieldsAreNotLookedAt() {
        let store = Store<SFState, Never>(initialState: SFState())
        let reads = SFReads()
        let delivered = TDCounter()
        var subscriptions: [Subscription] = []
        var deriveds: [Derived<Int>] = []
        for i in 0..<8 {
            let derived = store.derived(\SFState.items[counted: i, by: reads])
            subscriptions.append(derived.sinkValue(dropsFirst: true) { _ in delivered.increment() })
            deriveds.append(derived)
        }
        reads.reset()
        for _ in 0..<50 { store.commit { $0.count += 1 } }
        store.commit { $0.name = "Ada" }
        store.commit { $0.profile.first = "Grace" }
        #expect(reads.value == 0, "commits to other fields re-read the readers of items")
        #expect(delivered.value == 0)

        store.commit { $0.items[3] += 1 }
        #expect(reads.value == 8, "a commit to items reads each of its 8 readers once")
        #expect(delivered.value == 1)
        #expect(deriveds[3].value == 1)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a plain state reads every reader on every commit (what StateFields avoids)")
    func plainStateReadsEveryReader() {
        let store = Store<SFPlainState, Never>(initialState: SFPlainState())
        let reads = SFReads()
        var subscriptions: [Subscription] = []
        for i in 0..<8 {
            subscriptions.append(store.derived(\SFPlainState.items[counted: i, by: reads]).sinkValue { _ in })
        }
        reads.reset()
        for _ in 0..<5 { store.commit { $0.count += 1 } }
        #expect(reads.value == 40)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a field is matched whole: itemsCount is not under items")
    func fieldNamesThatSharePrefixes() {
        let store = Store<SFState, Never>(initialState: SFState())
        let seen = TDLog<Int>()
        let subscription = observe { seen.append(store.state.itemsCount) }
        store.commit { $0.itemsCount = 1 }
        store.commit { $0.items[0] = 5 }
        store.commit { $0.itemsCount = 2 }
        #expect(seen.all == [0, 1, 2])
        subscription.cancel()
    }

    @Test("a subscripted or computed field matches only its own key path")
    func oddFields() {
        let store = Store<SFOddState, Never>(initialState: SFOddState())
        let second = store.derived(\SFOddState.items[1])
        let first = store.derived(\SFOddState.items[0])
        let doubled = store.derived(\SFOddState.doubled)
        let seen = TDLog<String>()
        let subscription = observe { seen.append("\(first.value) \(second.value) \(doubled.value)") }
        store.commit { $0.items[1] = 7 }
        store.commit { $0.items[0] = 3 }
        store.commit { $0.count = 2 }
        #expect(seen.all == ["0 0 0", "0 7 0", "3 7 0", "3 7 4"])
        subscription.cancel()
    }

    @Test("a reader of a field and of the whole state sees one state per commit")
    func readersStayConsistentWithTheWholeState() {
        let store = Store<SFState, Never>(initialState: SFState())
        let mismatches = TDLog<String>()
        let runs = TDCounter()
        let subscription = observe {
            runs.increment()
            let item = store.state.items
            let first = store.state.profile.first
            let whole = store.state.wholeValue
            if item != whole.items || first != whole.profile.first {
                mismatches.append("\(item) / \(first) against \(whole)")
            }
        }
        for step in 1...30 {
            store.commit {
                if step % 2 == 0 { $0.items[step % 8] += step }
                if step % 3 == 0 { $0.profile.first = "p\(step)" }
                $0.count = step
            }
        }
        #expect(mismatches.all.isEmpty)
        #expect(runs.value == 31)
        subscription.cancel()
    }

    @Test(
        "random commits: every reader matches the state, as in a plain store",
        arguments: [3, 17, 2026] as [UInt64])
    func randomAgainstThePlainState(seed: UInt64) {
        var random = CoreLCG(seed: seed)
        let fielded = Store<SFState, Never>(initialState: SFState())
        let plain = Store<SFPlainState, Never>(initialState: SFPlainState())
        let (fieldedSeen, fieldedSubscription) = Self.watch(fielded)
        let (plainSeen, plainSubscription) = Self.watch(plain)
        // Readers under every kind of key path: fields, elements, nested, optional, computed.
        let fieldedItems = (0..<8).map { i in fielded.derived(from: \SFState.items[i]) { $0 * 10 } }
        let plainItems = (0..<8).map { i in plain.derived(from: \SFPlainState.items[i]) { $0 * 10 } }
        let fieldedTotal = fielded.derived(\SFState.total)
        let fieldedOptional = fielded.derived(\SFState.optional?.last)
        for step in 0..<300 {
            let amount = Int.random(in: 1...3, using: &random)
            let index = Int.random(in: 0..<8, using: &random)
            let mutation: @Sendable (inout any SFFields) -> Void
            switch Int.random(in: 0...6, using: &random) {
            case 0: mutation = { $0.count += amount }
            case 1: mutation = { $0.name = ["", "a", "b"][amount - 1] }
            case 2: mutation = { $0.items[index] += amount }
            case 3: mutation = { $0.itemsCount = amount }
            case 4: mutation = { $0.profile.first = "f\(amount)" }
            case 5: mutation = { $0.optional = amount == 1 ? nil : SFProfile(first: "o", last: "\(amount)") }
            default: mutation = { $0.items[index] = $0.items[index] }  // changes nothing
            }
            fielded.commit { state in
                var erased: any SFFields = state
                mutation(&erased)
                state = erased as! SFState
            }
            plain.commit { state in
                var erased: any SFFields = state
                mutation(&erased)
                state = erased as! SFPlainState
            }
            let state = fielded.currentState
            #expect(fieldedItems.map(\.value) == state.items.map { $0 * 10 }, "step \(step)")
            #expect(plainItems.map(\.value) == fieldedItems.map(\.value), "step \(step)")
            #expect(fieldedTotal.value == state.total, "step \(step)")
            #expect(fieldedOptional.value == state.optional?.last, "step \(step)")
        }
        #expect(fieldedSeen.all == plainSeen.all)
        #expect(fieldedSeen.count > 100)
        fieldedSubscription.cancel()
        plainSubscription.cancel()
    }

    /// What a reaction reading several fields through `store.state` saw, one line per run.
    private static func watch<State: SFFields>(_ store: Store<State, Never>) -> (TDLog<String>, Subscription) {
        let seen = TDLog<String>()
        let subscription = observe {
            let state = store.state
            seen.append(
                "\(state.count) \(state.name) \(state.items[2]) \(state.profile.first) \(state.optional?.last ?? "-")"
            )
        }
        return (seen, subscription)
    }

    @Test("readers made while another thread commits are never left behind", arguments: 0..<16)
    func readersMadeDuringCommits(round: Int) {
        let width = 32
        let store = Store<SFState, Never>(initialState: SFState(items: Array(repeating: 0, count: width)))
        let made = TDLog<(Int, Derived<Int>, Subscription)>()
        runOnThreads(2) { thread in
            if thread == 0 {
                for k in 0..<(width * 4) { store.commit { $0.items[k % width] += 1 } }
            } else {
                for i in 0..<width {
                    let derived = store.derived(\SFState.items[i])
                    made.append((i, derived, derived.sinkValue { _ in }))
                }
            }
        }
        let state = store.currentState
        for (index, derived, _) in made.all {
            #expect(derived.value == state.items[index], "reader of items[\(index)] in round \(round)")
        }
        #expect(state.items.allSatisfy { $0 == 4 })
    }
}
