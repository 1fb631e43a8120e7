import RippleStore
import Testing

/// A naive reference model of a store: a plain struct, a version counter and the log of what a
/// subscriber must have seen.
private struct CoreModel {
    var state = AppState()
    var version: UInt64 = 0
    var log: [CoreDelivery] = [CoreDelivery(subscriber: "s", version: 0, state: AppState(), previous: nil)]
    var names: [String] = [""]
    var transactionNames: [String?] = ["initial state"]

    /// Applies a commit the way the store is specified to: published only when it changed.
    mutating func commit(_ name: String?, _ mutation: (inout AppState) -> Void) {
        var next = state
        mutation(&next)
        guard next != state else { return }
        version += 1
        log.append(CoreDelivery(subscriber: "s", version: version, state: next, previous: state))
        if next.name != state.name { names.append(next.name) }
        transactionNames.append(name)
        state = next
    }
}

@Suite("Store against a reference model")
struct StoreModelTests {
    @Test(
        "random commits: state, version and deliveries match the model after every step",
        arguments: [1, 42, 2024, 90_210] as [UInt64])
    func randomCommits(seed: UInt64) throws {
        var random = CoreLCG(seed: seed)
        let store = AppStore(initialState: AppState())
        var model = CoreModel()
        let seen = Recorder<CoreDelivery>()
        let names = Recorder<String>()
        let transactionNames = Recorder<String?>()
        let all = store.sinkState { changes in
            seen.append(
                CoreDelivery(
                    subscriber: "s", version: changes.version, state: changes.current, previous: changes.previous))
            transactionNames.append(changes.transaction.name)
        }
        let nameWatcher = store.sinkState { changes in
            changes.ifChanged(\.name) { names.append($0) }
        }
        // A subscriber that answers every "chain" commit with one of its own.
        let chainer = store.sinkState(dropsFirst: true) { changes in
            if changes.transaction.name == "chain" { store.commit("chained") { $0.count += 100 } }
        }

        for step in 0..<400 {
            let amount = Int.random(in: 0...2, using: &random)
            let pick = Int.random(in: 0...3, using: &random)
            switch Int.random(in: 0...6, using: &random) {
            case 0:
                store.commit { $0.count += amount }
                model.commit(nil) { $0.count += amount }
            case 1:
                let name = ["", "a", "b", "c"][pick]
                store.commit("name") { $0.name = name }
                model.commit("name") { $0.name = name }
            case 2:
                store.commit("append") { $0.items.append(Item(title: "\(step)")) }
                model.commit("append") { $0.items.append(Item(title: "\(step)")) }
            case 3:
                let remove: (inout AppState) -> Void = { if !$0.items.isEmpty { $0.items.removeFirst() } }
                store.commit("remove", remove)
                model.commit("remove", remove)
            case 4:
                // Throws half-way: nothing happens.
                #expect(throws: CoreCommitError.self) {
                    try store.commit { (state: inout AppState) throws(CoreCommitError) in
                        state.count += 1_000
                        state.name = "never"
                        throw .refused
                    }
                }
            case 5:
                let count = pick
                store.commit { state, transaction in
                    transaction.name = "set"
                    transaction[CoreAttempt.self] = step
                    state.count = count
                }
                model.commit("set") { $0.count = count }
            default:
                let before = model.state
                store.commit("chain") { $0.count += amount }
                model.commit("chain") { $0.count += amount }
                if model.state != before { model.commit("chained") { $0.count += 100 } }
            }
            try #require(store.currentState == model.state, "step \(step), seed \(seed)")
            try #require(store.version == model.version, "step \(step), seed \(seed)")
            try #require(seen.values == model.log, "step \(step), seed \(seed)")
        }
        #expect(names.values == model.names)
        #expect(transactionNames.values == model.transactionNames)
        #expect(model.version > 100)  // the sequence did change the state often
        withExtendedLifetime((all, nameWatcher, chainer)) {}
    }
}
