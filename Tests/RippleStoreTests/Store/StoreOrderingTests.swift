import RippleStore
import Testing

/// Checks that `events` (pairs of "enter"/"exit" marks, as `(isEnter, label)`) never nest: each
/// enter is followed by the exit of the same label. Returns the labels in order.
private func coreUnnested(_ events: [(isEnter: Bool, label: String)]) -> (ok: Bool, labels: [String]) {
    var labels: [String] = []
    var open: String?
    for event in events {
        if event.isEnter {
            if open != nil { return (false, labels) }
            open = event.label
            labels.append(event.label)
        } else {
            if open != event.label { return (false, labels) }
            open = nil
        }
    }
    return (open == nil, labels)
}

@Suite("Store delivery order")
struct StoreOrderingTests {
    @Test("the commits of one batch reach a subscriber as one change, as documented")
    func commitsInOneBatchAreOneChange() {
        let store = TDStore(initialState: TDState())
        let seen = TDLog<String>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            seen.append("\(changes.previous?.count ?? -1)->\(changes.current.count)@\(changes.version)")
        }
        batch {
            store.commit { $0.count = 1 }
            store.commit { $0.count = 2 }
        }
        store.commit { $0.count = 3 }
        #expect(seen.all == ["0->2@2", "2->3@3"])
        subscription.cancel()
    }

    @Test("1000 concurrent commits from 4 threads reach every subscriber once each, in version order")
    func orderedConcurrentDelivery() {
        let store = AppStore(initialState: AppState())
        let threads = 4, perThread = 250, total = threads * perThread
        let deliveries = Recorder<CoreDelivery>()
        let subscriptions = ["A", "B", "C"].map { name in
            store.sinkState { changes in
                deliveries.append(
                    CoreDelivery(
                        subscriber: name, version: changes.version, state: changes.current, previous: changes.previous))
            }
        }
        runOnThreads(threads) { thread in
            for index in 0..<perThread {
                store.commit("thread") { state in
                    state.count += 1
                    state.name = "\(thread)-\(index)"
                }
            }
        }
        #expect(store.version == UInt64(total))
        let all = deliveries.values
        for name in ["A", "B", "C"] {
            let mine = all.filter { $0.subscriber == name }
            #expect(mine.map(\.version) == Array(0...UInt64(total)), "\(name) missed, repeated or reordered a version")
            // Each state is the one of its version, and `previous` the one delivered before it.
            #expect(mine.allSatisfy { UInt64($0.state.count) == $0.version })
            #expect(zip(mine, mine.dropFirst()).allSatisfy { $1.previous == $0.state })
        }
        // Deliveries are not interleaved across versions: every subscriber gets version n before
        // anyone gets version n + 1.
        #expect(zip(all, all.dropFirst()).allSatisfy { $1.version >= $0.version })
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a commit made inside a subscriber is delivered to everyone after the current delivery")
    func commitInsideSubscriber() {
        let store = AppStore(initialState: AppState())
        let events = Recorder<(isEnter: Bool, label: String)>()
        let seen = Recorder<CoreDelivery>()
        let innerResults = Recorder<Int>()
        func subscriber(_ name: String, commits: Bool) -> Subscription {
            store.sinkState { changes in
                events.append((true, "\(name)@\(changes.version)"))
                seen.append(
                    CoreDelivery(
                        subscriber: name, version: changes.version, state: changes.current, previous: changes.previous))
                if commits, changes.version == 1 {
                    let result = store.commit("from \(name)") { state -> Int in
                        state.name = name
                        return state.count * 100
                    }
                    innerResults.append(result)  // applied at once: the result is returned here
                }
                events.append((false, "\(name)@\(changes.version)"))
            }
        }
        let subscriptions = [
            subscriber("A", commits: true), subscriber("B", commits: false), subscriber("C", commits: false),
        ]
        store.commit("outer") { $0.count = 1 }

        // Delivered before the outer commit returned.
        #expect(store.version == 2)
        #expect(store.currentState == AppState(name: "A", count: 1))
        #expect(innerResults.values == [100])
        let (ok, labels) = coreUnnested(events.values)
        #expect(ok, "a delivery ran inside another: \(events.values)")
        #expect(labels == ["A@0", "B@0", "C@0", "A@1", "B@1", "C@1", "A@2", "B@2", "C@2"])
        let all = seen.values
        for name in ["A", "B", "C"] {
            let mine = all.filter { $0.subscriber == name }
            #expect(mine.map(\.version) == [0, 1, 2])
            #expect(mine.last?.state == AppState(name: "A", count: 1))
            #expect(mine.last?.previous == AppState(count: 1))
        }
        withExtendedLifetime(subscriptions) {}
    }

    @Test("two subscribers that each commit, and a cascade: delivered in order, never nested, nothing lost")
    func subscribersThatCommit() {
        let store = AppStore(initialState: AppState())
        let events = Recorder<(isEnter: Bool, label: String)>()
        let seen = Recorder<CoreDelivery>()
        let transactions = Recorder<String>()
        let a = store.sinkState { changes in
            events.append((true, "A@\(changes.version)"))
            seen.append(
                CoreDelivery(
                    subscriber: "A", version: changes.version, state: changes.current, previous: changes.previous))
            if changes.transaction.name == "outer" { store.commit("A") { $0.name = "A" } }
            events.append((false, "A@\(changes.version)"))
        }
        let b = store.sinkState { changes in
            events.append((true, "B@\(changes.version)"))
            seen.append(
                CoreDelivery(
                    subscriber: "B", version: changes.version, state: changes.current, previous: changes.previous))
            transactions.append(changes.transaction.description)
            if changes.transaction.name == "outer" { store.commit("B") { $0.items.append(Item(title: "B")) } }
            // A cascade: B reacts to A's commit with one more.
            if changes.transaction.name == "A" { store.commit("B after A") { $0.count += 10 } }
            events.append((false, "B@\(changes.version)"))
        }
        store.commit("outer") { $0.count = 1 }

        let (ok, labels) = coreUnnested(events.values)
        #expect(ok, "a delivery ran inside another: \(events.values)")
        #expect(labels == ["A@0", "B@0", "A@1", "B@1", "A@2", "B@2", "A@3", "B@3", "A@4", "B@4"])
        #expect(transactions.values == ["initial state", "outer", "A", "B", "B after A"])
        let all = seen.values
        let statesA = all.filter { $0.subscriber == "A" }.map(\.state)
        let statesB = all.filter { $0.subscriber == "B" }.map(\.state)
        #expect(statesA == statesB)
        // Each commit was applied on the state the one before left: nothing was lost.
        #expect(
            statesA == [
                AppState(),
                AppState(count: 1),
                AppState(name: "A", count: 1),
                AppState(name: "A", count: 1, items: [Item(title: "B")]),
                AppState(name: "A", count: 11, items: [Item(title: "B")]),
            ])
        #expect(store.currentState == statesA.last)
        withExtendedLifetime((a, b)) {}
    }

    @Test("commits from many threads while a subscriber commits back: one order for everyone, never nested")
    func concurrentCommitsWithSubscriberCommits() {
        let store = AppStore(initialState: AppState())
        let threads = 4, perThread = 100
        let events = Recorder<(isEnter: Bool, label: String)>()
        let seen = Recorder<CoreDelivery>()
        let echoer = store.sinkState(dropsFirst: true) { changes in
            events.append((true, "echo@\(changes.version)"))
            seen.append(
                CoreDelivery(
                    subscriber: "echo", version: changes.version, state: changes.current, previous: changes.previous))
            if changes.transaction.name == "thread", changes.current.count % 10 == 0 {
                store.commit("echo") { $0.items.append(Item(title: "\($0.count)")) }
            }
            events.append((false, "echo@\(changes.version)"))
        }
        let watcher = store.sinkState(dropsFirst: true) { changes in
            events.append((true, "watch@\(changes.version)"))
            seen.append(
                CoreDelivery(
                    subscriber: "watch", version: changes.version, state: changes.current, previous: changes.previous))
            events.append((false, "watch@\(changes.version)"))
        }
        runOnThreads(threads) { _ in
            for _ in 0..<perThread {
                store.commit("thread") { $0.count += 1 }
            }
        }
        let commits = threads * perThread, echoes = commits / 10
        #expect(store.version == UInt64(commits + echoes))
        #expect(store.currentState.count == commits)
        #expect(store.currentState.items.count == echoes)

        let (ok, _) = coreUnnested(events.values)
        #expect(ok, "a delivery ran inside another")
        let all = seen.values
        let echo = all.filter { $0.subscriber == "echo" }
        let watch = all.filter { $0.subscriber == "watch" }
        #expect(echo.map(\.version) == Array(1...UInt64(commits + echoes)))
        #expect(echo.map(\.state) == watch.map(\.state))
        // Each echo was applied right after the commit it answers, before any other thread's.
        for (before, after) in zip(echo, echo.dropFirst()) {
            #expect(after.previous == before.state)
            let isEcho = after.state.items.count > before.state.items.count
            if isEcho {
                #expect(before.state.count % 10 == 0 && after.state.count == before.state.count)
                #expect(after.state.items.last?.title == "\(before.state.count)")
            } else {
                #expect(after.state.count == before.state.count + 1)
            }
        }
        withExtendedLifetime((echoer, watcher)) {}
    }
}
