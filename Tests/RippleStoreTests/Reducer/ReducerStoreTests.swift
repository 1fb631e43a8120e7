import Testing
import Foundation
import RippleStore

@Suite struct ReducerStoreTests {
    @Test func theIssuesCounterCompilesAndRuns() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        store.send(.increment)
        #expect(store.currentState.number == 1)
        store.send(.decrement)
        #expect(store.currentState.number == 0)
        // Synchronous effect actions are reduced before `send` returns.
        store.send(.twice)
        #expect(store.currentState.number == 2)
    }

    @Test func effectActionsArriveAfterSendReturns() async {
        let store = ReducerStore(reducer: RDCounter(fetch: { 42 }), initialState: RDCounter.State())
        store.send(.load)
        #expect(await rdEventually { store.currentState.number == 42 })
    }

    @Test func eachActionIsOneCommitCarryingTheAction() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let actions = RDBox<[String]>([])
        let subscription = store.sinkState(dropsFirst: true) { changes in
            let action = changes.transaction.action as? RDCounter.Action
            actions.update { $0.append("\(action.map { "\($0)" } ?? "nil") \(changes.version)") }
        }
        withExtendedLifetime(subscription) {
            store.send(.increment)
            store.send(.twice)
            store.commit { $0.number = 10 }
        }
        #expect(actions.value == ["increment 1", "increment 2", "increment 3", "nil 4"])
    }

    @Test("a closure selector on a reducer store sees each action's commit, its effects' too")
    func closureSelectorsSeeEachAction() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let number = store.select { $0.number }
        let numbers = RDBox<[Int]>([])
        let subscription = number.sinkValue(dropsFirst: true) { changes in
            numbers.update { $0.append(changes.current) }
        }
        withExtendedLifetime(subscription) {
            store.send(.increment)
            store.send(.setText("no number change"))
            store.send(.twice)
        }
        #expect(numbers.value == [1, 2, 3])
        #expect(number.value == 3)
    }

    @Test func changesAndDerivedValuesWorkWithNoExtraCode() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let numbers = RDBox<[Int]>([])
        let doubled = store.derived(from: \.number) { $0 * 2 }
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.number) { number in numbers.update { $0.append(number) } }
        }
        withExtendedLifetime(subscription) {
            store.send(.increment)
            store.send(.setText("no number change"))
            store.send(.increment)
        }
        #expect(numbers.value == [0, 1, 2])
        #expect(doubled.value == 4)
    }

    @Test func aLoggerSeesEachReducedAction() {
        final class Logger: StoreLogger, @unchecked Sendable {
            let lines = RDBox<[String]>([])
            func didCommit(_ commit: StoreLog.Commit) { lines.update { $0.append(commit.transaction.description) } }
        }
        let logger = Logger()
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State(), logger: logger)
        store.send(.increment)
        store.send(.setText("a"))
        #expect(logger.lines.value == ["send(increment)", "send(setText(\"a\"))"])
    }

    @Test func actionsSentFromASubscriberAreQueuedNotReentrant() {
        let probe = RDProbe()
        let store = ReducerStore(reducer: RDCounter(probe: probe), initialState: RDCounter.State())
        let seen = RDBox<[Int]>([])
        let subscription = store.sinkState(dropsFirst: true) { [weak store] changes in
            seen.update { $0.append(changes.current.number) }
            if changes.current.number < 3 {
                store?.send(.increment)
                // Queued: not reduced yet.
                seen.update { $0.append(-(store?.currentState.number ?? 0)) }
            }
        }
        withExtendedLifetime(subscription) {
            store.send(.increment)
        }
        #expect(probe.maximumDepth == 1)
        #expect(store.currentState.number == 3)
        #expect(seen.value == [1, -1, 2, -2, 3])
    }

    @Test func actionsFromTwoThreadsAreAllAppliedOnceInEachThreadsOrder() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let perThread = 2_000
        runOnThreads(2) { thread in
            for index in 0..<perThread {
                store.send(.log("\(thread):\(index)"))
                // `send` returned: the action is in the state.
                if index % 250 == 0 {
                    #expect(store.currentState.log.contains("\(thread):\(index)"))
                }
            }
        }
        let log = store.currentState.log
        #expect(log.count == 2 * perThread)
        #expect(Set(log).count == 2 * perThread)
        for thread in 0..<2 {
            let mine = log.filter { $0.hasPrefix("\(thread):") }
            #expect(mine == (0..<perThread).map { "\(thread):\($0)" })
        }
    }

    @Test func aSendFromAnotherThreadWaitsUntilItsActionIsReduced() {
        let probe = RDProbe()
        let store = ReducerStore(reducer: RDCounter(probe: probe), initialState: RDCounter.State())
        probe.hold(1)
        let other = RDBox<[String]?>(nil)
        let done = ThreadLatch(2)
        Thread.detachNewThread {
            store.send(.wait(1))  // blocks inside its reduction until released
            done.arrive()
        }
        probe.waitUntilEntered(1)
        Thread.detachNewThread {
            store.send(.log("second"))  // queued behind .wait(1): waits for it
            other.value = store.currentState.log
            done.arrive()
        }
        probe.release(1)
        done.wait()
        #expect(other.value == ["wait 1", "second"])
    }

    @Test func releasingTheStoreCancelsItsEffects() async {
        let cancelled = RDBox(false)
        let started = RDBox(false)
        var store: ReducerStore<RDCounter>? = ReducerStore(
            reducer: RDCounter(fetch: {
                started.value = true
                do {
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    cancelled.value = true
                    throw error
                }
                return 0
            }),
            initialState: RDCounter.State()
        )
        store?.send(.load)
        #expect(await rdEventually { started.value })
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil)
        #expect(await rdEventually { cancelled.value })
    }

    @Test func effectsDoNotKeepTheStoreAlive() async {
        let started = RDBox(false)
        var store: ReducerStore<RDCounter>? = ReducerStore(
            reducer: RDCounter(fetch: {
                started.value = true
                try await Task.sleep(for: .seconds(3_600))
                return 0
            }),
            initialState: RDCounter.State()
        )
        store?.send(.load)
        #expect(await rdEventually { started.value })
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil)
    }

    @Test func resetCancelsEffectsAndClearsTheQueue() async {
        let cancelled = RDBox(false)
        let started = RDBox(false)
        let store = ReducerStore(
            reducer: RDCounter(fetch: {
                started.value = true
                do {
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    cancelled.value = true
                    throw error
                }
                return 0
            }),
            initialState: RDCounter.State()
        )
        store.send(.load)
        #expect(await rdEventually { started.value })
        // A subscriber queues two actions, then resets: they are dropped.
        let subscription = store.sinkState(dropsFirst: true) { [weak store] changes in
            guard changes.current.number == 1 else { return }
            store?.send(.increment)
            store?.send(.increment)
            store?.reset()
        }
        withExtendedLifetime(subscription) {
            store.send(.increment)
        }
        #expect(store.currentState.number == 1)
        #expect(await rdEventually { cancelled.value })
        // The state is kept, and the store still works.
        store.send(.increment)
        #expect(store.currentState.number == 2)
    }

    @Test func aKeyPathBindingSendsAnActionOnWrite() {
        let store = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let text = store.binding(\.text, send: { .setText($0) })
        let seen = RDBox<[String]>([])
        let subscription = observe {
            let value = text.value; seen.update { $0.append(value) }
        }
        withExtendedLifetime(subscription) {
            text.value = "hello"
            store.send(.increment)  // does not change text: the reader stays quiet
            store.send(.setText("from the store"))
        }
        #expect(store.currentState.text == "from the store")
        #expect(seen.value == ["", "hello", "from the store"])
    }

    @Test func aBindingOutlivingItsStoreDropsWrites() {
        var store: ReducerStore<RDCounter>? = ReducerStore(reducer: RDCounter(), initialState: RDCounter.State())
        let text = store!.binding(\.text, send: { .setText($0) })
        store = nil
        text.value = "dropped"
        #expect(text.value == "")
    }
}

/// Each store's `count` is mirrored into the other's `mirror` by a subscriber that sends.
struct XMirror: Reducer {
    struct State: Equatable {
        var count = 0
        var mirror = 0
    }

    enum Action: Equatable, Sendable {
        case increment
        case mirror(Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.count += 1
        case .mirror(let value): state.mirror = value
        }
        return .none
    }
}

@Suite("Reducer stores that send to each other")
struct ReducerCrossSendTests {
    @Test("two reducer stores whose subscribers send to each other, from 2 threads × 2 000 sends: no hang")
    func crossSendsDoNotDeadlock() {
        let settings = ReducerStore(reducer: XMirror(), initialState: XMirror.State(), name: "settings")
        let profile = ReducerStore(reducer: XMirror(), initialState: XMirror.State(), name: "profile")
        let perThread = 2_000
        let a = settings.sinkState(dropsFirst: true) { changes in
            changes.ifChanged(\.count) { count in profile.send(.mirror(count)) }
        }
        let b = profile.sinkState(dropsFirst: true) { changes in
            changes.ifChanged(\.count) { count in settings.send(.mirror(count)) }
        }
        runOnThreads(2) { thread in
            let store = thread == 0 ? settings : profile
            for _ in 0..<perThread { store.send(.increment) }
        }
        #expect(settings.currentState.count == perThread)
        #expect(profile.currentState.count == perThread)
        withExtendedLifetime((a, b)) {}
    }
}
