import RippleStore
import Testing

/// Issue 10 item 10: a logger receives each commit and activity.
@Suite("StoreLogger")
struct StoreLoggerTests {
    @Test("a commit is logged with its name, version, changed flag and what it woke")
    func commitIsLogged() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let first = store.sinkState(file: "Logging", line: 1) { _ in }
        let second = store.sinkState(file: "Logging", line: 2) { _ in }
        let count = store.derived(\.count)
        let reader = observe { _ = count.value }
        #expect(logger.commits.isEmpty, "subscribing is not a commit")

        store.increment()
        let commits = logger.commits
        #expect(commits.count == 1)
        guard let commit = commits.first else { return }
        #expect(commit.store == "td")
        #expect(commit.transaction.name == "increment")
        #expect(commit.version == 1)
        #expect(commit.changed)
        #expect(commit.duration >= .zero)
        let subscribers = commit.woken.compactMap { wake -> String? in
            if case .subscriber(let name) = wake { return name } else { return nil }
        }
        #expect(subscribers == ["Logging:1", "Logging:2"], "woken: \(commit.woken)")
        let derived = commit.woken.compactMap { wake -> String? in
            if case .derived(let name) = wake { return name } else { return nil }
        }
        #expect(derived.contains { $0.contains("count") }, "woken: \(commit.woken)")
        withExtendedLifetime((first, second, reader)) {}
    }

    @Test("each commit is logged once, in order, with its version")
    func everyCommitLogged() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        store.increment()
        store.rename("Ada")
        store.commit("third") { $0.a = 1 }
        #expect(logger.commits.map(\.version) == [1, 2, 3])
        #expect(logger.commits.map(\.transaction.name) == ["increment", "rename", "third"])
        #expect(logger.commits.allSatisfy { $0.changed })
    }

    @Test("a commit wakes only the subscribers that exist; a cancelled one is not listed")
    func cancelledSubscriberNotWoken() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let kept = store.sinkState(file: "Logging", line: 1) { _ in }
        let dropped = store.sinkState(file: "Logging", line: 2) { _ in }
        dropped.cancel()
        store.increment()
        #expect(logger.commits.first?.woken == [.subscriber("Logging:1")])
        withExtendedLifetime(kept) {}
    }

    @Test("a commit inside batch { } is logged after its delivery, naming what it woke")
    func commitInBatchLoggedAfterDelivery() {
        let events = TDLog<String>()
        let logger = TDEventLogger(events)
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let subscription = store.sinkState(dropsFirst: true) { events.append("subscriber \($0.version)") }
        batch { store.commit { $0.count = 2 } }
        #expect(events.all == ["subscriber 1", "log 1 woke 1"])
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit that changed nothing, made inside a subscriber, is logged in version order")
    func unchangedCommitInSubscriberLoggedInOrder() {
        let events = TDLog<String>()
        let logger = TDChangeLogger(events)
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let subscription = store.sinkState(dropsFirst: true) { changes in
            events.append("subscriber \(changes.version)")
            if changes.version == 1 {
                store.commit("inner") { $0.count = 2 }
                store.commit("noop") { _ in }
            }
        }
        store.commit("outer") { $0.count = 1 }
        #expect(
            events.all == [
                "subscriber 1", "log 1 changed outer", "subscriber 2", "log 2 changed inner", "log 2 unchanged noop",
            ])
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit that changed nothing inside batch { } is logged once the batch is delivered")
    func unchangedCommitInBatchLoggedAfterDelivery() {
        let events = TDLog<String>()
        let logger = TDChangeLogger(events)
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let subscription = store.sinkState(dropsFirst: true) { events.append("subscriber \($0.version)") }
        batch {
            store.commit("a") { $0.count = 1 }
            store.commit("b") { $0.count = 2 }
            store.commit("noop") { _ in }
        }
        #expect(
            events.all == ["subscriber 2", "log 1 changed a", "log 2 changed b", "log 2 unchanged noop"])
        // With nothing waiting, at once.
        store.commit("alone") { _ in }
        #expect(events.all.last == "log 2 unchanged alone")
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit inside batch { } inside a subscriber is logged after its delivery")
    func commitInBatchInSubscriberLoggedAfterDelivery() {
        let events = TDLog<String>()
        let logger = TDEventLogger(events)
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let subscription = store.sinkState(dropsFirst: true) { changes in
            events.append("subscriber \(changes.version)")
            if changes.current.count == 1 { batch { store.commit { $0.count = 2 } } }
        }
        store.commit { $0.count = 1 }
        let all = events.all
        #expect(all.count == 4)
        for version in 1...2 {
            let delivered = all.firstIndex(of: "subscriber \(version)")
            let logged = all.firstIndex(of: "log \(version) woke 1")
            #expect(delivered != nil && logged != nil && delivered! < logged!, "\(all)")
        }
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit that changes nothing is logged as unchanged, waking no one")
    func noChangeIsLoggedUnchanged() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let deliveries = TDCounter()
        let subscription = store.sinkState(dropsFirst: true) { _ in deliveries.increment() }
        store.increment()
        store.commit("noop") { _ in }
        store.commit("same") { $0.count = 1 }
        let commits = logger.commits
        #expect(commits.count == 3)
        #expect(commits.map(\.changed) == [true, false, false])
        #expect(commits.dropFirst().map(\.transaction.name) == ["noop", "same"])
        #expect(commits.dropFirst().map(\.version) == [1, 1])
        #expect(commits.dropFirst().allSatisfy { $0.woken.isEmpty })
        #expect(deliveries.value == 1)
        subscription.cancel()
    }

    @Test("each activity is logged with the store's name")
    func activityIsLogged() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        store.send(.ping(3))
        store.send(.pong)
        #expect(logger.activities.map(\.store) == ["td", "td"])
        #expect(logger.activities.map(\.activity) == ["ping(3)", "pong"])
        #expect(logger.commits.isEmpty)
    }

    @Test("a store's default name is its type's")
    func defaultName() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), logger: logger)
        store.increment()
        #expect(store.name == "TDStore")
        #expect(logger.commits.first?.store == "TDStore")
    }

    @Test("PrintStoreLogger writes one line per commit and activity")
    func printLogger() {
        let lines = TDLog<String>()
        let store = TDStore(initialState: TDState(), name: "td", logger: PrintStoreLogger { lines.append($0) })
        let subscription = store.sinkState(file: "Logging", line: 7) { _ in }
        store.increment()
        store.commit("noop") { _ in }
        store.send(.pong)
        let all = lines.all
        #expect(all.count == 3)
        #expect(all.first?.hasPrefix("[td] increment → version 1 in ") == true)
        #expect(all.first?.hasSuffix("woke subscriber Logging:7") == true)
        #expect(all.dropFirst().first == "[td] noop: no change")
        #expect(all.last == "[td] activity pong")
        subscription.cancel()
    }

    @Test("commits from 2 threads are each logged once, versions 1...n")
    func concurrentCommitsLogged() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let subscription = store.sinkState(file: "Logging", line: 1) { _ in }
        runOnThreads(2) { _ in
            for _ in 0..<200 { store.increment() }
        }
        let commits = logger.commits
        #expect(commits.count == 400)
        #expect(commits.map(\.version).sorted() == Array(1...400))
        #expect(commits.allSatisfy { $0.woken == [.subscriber("Logging:1")] })
        subscription.cancel()
    }
}

/// A logger that appends "log <version> woke <count>" to a shared log of events.
final class TDEventLogger: StoreLogger {
    let events: TDLog<String>
    init(_ events: TDLog<String>) { self.events = events }
    func didCommit(_ commit: StoreLog.Commit) { events.append("log \(commit.version) woke \(commit.woken.count)") }
}

/// A logger that appends "log <version> changed|unchanged <name>" to a shared log of events.
final class TDChangeLogger: StoreLogger {
    let events: TDLog<String>
    init(_ events: TDLog<String>) { self.events = events }
    func didCommit(_ commit: StoreLog.Commit) {
        events.append(
            "log \(commit.version) \(commit.changed ? "changed" : "unchanged") \(commit.transaction.name ?? "-")")
    }
}
