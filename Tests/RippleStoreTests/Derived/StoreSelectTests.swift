import Foundation
import RippleStore
import Testing

/// An object whose deinitializer counts, captured by a selector.
private final class TDSelectorCapture: Sendable {
    let released: TDCounter
    init(_ released: TDCounter) { self.released = released }
    deinit { released.increment() }
}

/// Issue 37: closure selectors (`Store.select`) run once per commit that changes the state,
/// and only those whose result changed are delivered, in the batch that publishes the state.
@Suite("Store.select: closure selectors")
struct StoreSelectTests {
    @Test("1000 closure selectors: each runs once per commit, and only the changed one is delivered")
    func onlyTheChangedSelectorIsDelivered() {
        let store = Store<TDManyState, Never>(initialState: TDManyState())
        let ran = TDCounter()
        let delivered = TDLog<Int>()
        let selectors = (0..<1000).map { index in
            store.select { state in
                ran.increment()
                return state.values[index] * 10
            }
        }
        let subscriptions = selectors.enumerated().map { index, selector in
            selector.sinkValue(dropsFirst: true) { _ in delivered.append(index) }
        }
        #expect(ran.value == 1000)
        ran.reset()

        store.commit { $0.values[500] = 1 }
        #expect(ran.value == 1000)
        #expect(delivered.all == [500])
        #expect(selectors[500].value == 10)
        #expect(selectors[499].value == 0)

        ran.reset()
        store.commit { $0.other = 1 }
        #expect(ran.value == 1000, "a commit that changes the state runs every selector")
        #expect(delivered.all == [500], "and delivers none whose result did not change")

        ran.reset()
        store.commit { $0.other = 1 }
        #expect(ran.value == 0, "a commit that changes nothing runs none")
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a reaction reading the state and a selector sees them agree, and runs once per commit")
    func consistentWithTheState() {
        let store = TDStore(initialState: TDState())
        let doubled = store.select { $0.count * 2 }
        let count = store.derived(\.count)
        let seen = TDLog<[Int]>()
        let reaction = observe { seen.append([count.value, doubled.value]) }
        for _ in 0..<5 { store.increment() }
        #expect(seen.all == (0...5).map { [$0, $0 * 2] })
        reaction.cancel()
    }

    @Test("a commit made by a selector's subscriber is delivered after the one it saw, in order")
    func nestedCommitsInOrder() {
        let store = TDStore(initialState: TDState())
        let count = store.select { $0.count }
        let received = TDLog<Int>()
        let subscription = count.sinkValue(dropsFirst: true) { changes in
            received.append(changes.current)
            if changes.current < 3 { store.increment() }
        }
        let later = count.sinkValue(dropsFirst: true) { changes in received.append(100 + changes.current) }
        store.increment()
        #expect(received.all == [1, 101, 2, 102, 3, 103])
        #expect(count.value == 3)
        withExtendedLifetime((subscription, later)) {}
    }

    @Test("a selector made by a subscriber during a delivery starts from the state it reads")
    func madeDuringADelivery() {
        let store = TDStore(initialState: TDState())
        let made = TDLog<Derived<Int>>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            if changes.current.count == 1 {
                store.increment()
                made.append(store.select { $0.count })
            }
        }
        store.increment()
        #expect(made.all.count == 1)
        #expect(made.all.first?.value == 2)
        store.increment()
        #expect(made.all.first?.value == 3)
        withExtendedLifetime(subscription) {}
    }

    @Test("releasing the derived value releases its selector and what it captured, at once")
    func releasedWithItsValue() {
        let store = TDStore(initialState: TDState())
        let released = TDCounter()
        let ran = TDCounter()
        do {
            let capture = TDSelectorCapture(released)
            let selector = store.select { state in
                withExtendedLifetime(capture) { ran.increment() }
                return state.count
            }
            store.increment()
            #expect(selector.value == 1)
        }
        #expect(released.value == 1, "the selector's capture outlived its derived value")
        ran.reset()
        store.increment()
        #expect(ran.value == 0, "a released selector still runs")
    }

    @Test("commits made while every selector is released are seen by the next one made")
    func selectorAfterAllWereReleased() {
        let store = TDStore(initialState: TDState())
        do {
            let first = store.select { $0.count * 2 }
            #expect(first.value == 0)
        }
        // Published without the selectors' hook: none is listed.
        store.increment()
        store.increment()
        let second = store.select { $0.count * 3 }
        #expect(second.value == 6)
        let seen = TDLog<Int>()
        let subscription = second.sinkValue(dropsFirst: true) { seen.append($0.current) }
        store.increment()
        #expect(seen.all == [9])
        #expect(second.value == 9)
        withExtendedLifetime(subscription) {}
    }

    @Test("releasing selectors in any order keeps the others delivering")
    func releasedInAnyOrder() {
        let store = TDStore(initialState: TDState())
        var selectors = (0..<10).map { offset in store.select { $0.count + offset } }
        for index in [0, 8, 3] { selectors.remove(at: index) }
        store.increment()
        #expect(selectors.map(\.value) == [1, 2, 3, 5, 6, 7, 8].map { $0 + 1 })
    }

    @Test("a commit another thread makes while a selector is being made is not missed")
    func commitMadeWhileMaking() {
        let store = TDStore(initialState: TDState())
        let calls = TDCounter()
        let done = DispatchSemaphore(value: 0)
        let derived = store.select { state in
            calls.increment()
            if calls.value == 1 {
                // Another thread commits while this first run holds the store's commits back.
                Thread {
                    store.increment()
                    done.signal()
                }.start()
            }
            return state.count
        }
        done.wait()
        #expect(derived.value == 1, "the selector missed the commit made while it was made")
        #expect(calls.value == 2, "made once, then run once by that commit's publish")
        store.increment()
        #expect(derived.value == 2)
    }

    @Test("a commit published inside another thread's batch, applied after newer ones, leaves no stale selector")
    func commitPublishedInsideABatchElsewhere() {
        let store = TDStore(initialState: TDState())
        let count = store.select { $0.count }
        whileABatchElsewhereHoldsAPublish(to: store) { _ in
            store.rename("x")  // version 2, on top of 1 (count 1), while 1 is not applied
            #expect(count.value == store.state.count, "the selector disagreed with the state it was published with")
            store.increment()  // version 3: count 2
        }
        // Version 1's writes are applied now, after 2's and 3's.
        store.rename("y")
        #expect(store.state.count == 2)
        #expect(count.value == 2, "the older commit's write replaced the newer one's")
    }

    @Test("a selector made by the gate's owner while another thread's batch holds a publish is made once")
    func madeByTheOwnerWhileABatchElsewhereHoldsAPublish() {
        let store = TDStore(initialState: TDState())
        let first = store.select { $0.count }
        let calls = TDCounter()
        let made = TDLog<Derived<Int>>()
        whileABatchElsewhereHoldsAPublish(to: store) { endBatch in
            let trigger = Stored(0)
            let reaction = observe {
                guard trigger.value == 1 else { return }
                store.increment()  // this thread owns the gate; version 2 is published after the round
                made.append(
                    store.select { state in
                        calls.increment()
                        // A way out, should the owner wait here for the other batch.
                        if calls.value == 100 { endBatch() }
                        return state.count
                    })
            }
            trigger.value = 1
            // Made once, on the latest state (this thread's own commit, version 2), which its
            // publish after the round does not run again.
            #expect(calls.value == 1, "ran \(calls.value) times while the other thread's batch was open")
            reaction.cancel()
        }
        #expect(store.state.count == 2)
        #expect(made.all.first?.value == 2)
        #expect(first.value == 2)
    }

    @Test("selectors made while another thread commits end at the last state (bounded by counts)")
    func madeWhileCommitting() async {
        for _ in 0..<20 {
            let store = TDStore(initialState: TDState())
            let made = TDLog<Derived<Int>>()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for _ in 0..<200 { store.increment() }
                }
                group.addTask {
                    for _ in 0..<50 { made.append(store.select { $0.count }) }
                }
            }
            #expect(made.all.allSatisfy { $0.value == 200 })
        }
    }

    @Test(
        "4 threads commit, batch and make selectors at random: every selector ends at its result on the last state"
    )
    func randomizedAgainstTheLastState() {
        for round in 0..<12 {
            let store = TDStore(initialState: TDState())
            // Each selector with the function it applies: its end value is checked against
            // that function of the last state.
            let made = TDLog<TDSelected>()
            let threads = DispatchGroup()
            for thread in 0..<4 {
                threads.enter()
                let seed = UInt64(round &* 31 &+ thread &+ 1)
                Thread {
                    randomSteps(on: store, seed: seed, keeping: made)
                    threads.leave()
                }.start()
            }
            threads.wait()
            let last = store.currentState
            for selected in made.all {
                #expect(
                    selected.derived.value == selected.select(last),
                    "round \(round): a selector did not end at the last state")
            }
        }
    }

    @Test("a commit's log names the closure selectors it woke, by where they were made")
    func namedInTheLog() {
        let logger = TDLogger()
        let store = TDStore(initialState: TDState(), name: "td", logger: logger)
        let doubled = store.select(file: "Select", line: 7) { $0.count * 2 }
        let named = store.select(file: "Select", line: 8) { $0.name }
        let reader = observe {
            _ = doubled.value
            _ = named.value
        }
        store.increment()
        #expect(logger.commits.last?.woken.contains(.derived("Select:7")) == true, "\(logger.commits)")
        #expect(logger.commits.last?.woken.contains(.derived("Select:8")) == false)
        reader.cancel()
    }
}

/// Runs `body` while another thread holds a commit to `store` (its first, version 1) published
/// into its own open `batch`, whose writes are applied only when the batch ends; then ends that
/// batch and waits for it. `body` may end it earlier with the function it is given.
private func whileABatchElsewhereHoldsAPublish(
    to store: TDStore, _ body: (_ endBatch: @escaping @Sendable () -> Void) -> Void
) {
    let inBatch = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let ended = TDCounter()
    let endBatch: @Sendable () -> Void = {
        ended.increment()
        if ended.value == 1 { proceed.signal() }
    }
    Thread {
        batch {
            store.increment()
            inBatch.signal()
            proceed.wait()
        }
        done.signal()
    }.start()
    inBatch.wait()
    body(endBatch)
    endBatch()
    done.wait()
}

/// A closure selector's derived value, and the function it selects with.
private struct TDSelected: Sendable {
    let select: @Sendable (TDState) -> Int
    let derived: Derived<Int>
}

/// 100 random steps on `store`: commits, batches of commits, selectors made (kept in `made`, or
/// made and released at once), some inside a batch that holds a publish of this thread's commit.
private func randomSteps(on store: TDStore, seed: UInt64, keeping made: TDLog<TDSelected>) {
    var random = CoreLCG(seed: seed)
    let selects: [@Sendable (TDState) -> Int] = [{ $0.count * 10 + $0.a }, { $0.b - $0.a }]
    for _ in 0..<100 {
        let step = random.next() % 6
        let amount = Int(random.next() % 3)
        let select = selects[Int(random.next() % 2)]
        switch step {
        case 0: store.increment()
        case 1: store.commit { $0.a += amount }
        case 2:
            // The first commit's publish is held in this batch while other threads commit: the
            // yield widens that window (it orders nothing).
            batch {
                store.increment()
                sched_yield()
                store.commit { $0.b += amount }
            }
        case 3: made.append(TDSelected(select: select, derived: store.select(select)))
        case 4:
            batch {
                store.commit { $0.b += 1 }
                sched_yield()
                made.append(TDSelected(select: select, derived: store.select(select)))
            }
        default: _ = store.select(select).value
        }
    }
}
