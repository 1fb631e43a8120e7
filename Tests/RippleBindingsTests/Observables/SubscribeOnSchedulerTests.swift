import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct SubscribeOnSchedulerTests {
    @Test("subscribe(on:) calls the handler on the scheduler, every update, in order")
    func deliversEveryUpdateInOrderOnTheScheduler() {
        let manual = ManualScheduler()
        let count = Stored(0)
        let seen = Locked<[String]>([])
        let subscription = count.subscribe(on: manual.scheduler) { old, new in
            seen.mutate { $0.append("\(old.map(String.init) ?? "nil")→\(new)") }
        }
        count.value = 1
        count.value = 2
        count.value = 3
        #expect(seen.value.isEmpty)  // nothing before the scheduler runs
        #expect(manual.pendingCount == 1)  // one job drains them all
        manual.runAll()
        #expect(seen.value == ["0→1", "1→2", "2→3"])
        count.value = 4
        manual.runAll()
        #expect(seen.value == ["0→1", "1→2", "2→3", "3→4"])
        withExtendedLifetime(subscription) {}
    }

    @Test("subscribe(on:) with notifyingOnSubscription delivers the current value first, through the scheduler")
    func notifyingOnSubscriptionGoesThroughTheScheduler() {
        let manual = ManualScheduler()
        let name = Stored("a")
        let seen = Locked<[String]>([])
        let subscription = name.subscribe(on: manual.scheduler, .notifyingOnSubscription) { old, new in
            seen.mutate { $0.append("\(old ?? "nil")→\(new)") }
        }
        #expect(seen.value.isEmpty)
        name.value = "b"
        manual.runAll()
        #expect(seen.value == ["nil→a", "a→b"])
        withExtendedLifetime(subscription) {}
    }

    @Test("a cancelled subscribe(on:) delivers nothing more, not even updates already queued")
    func cancelDropsQueuedDeliveries() {
        let manual = ManualScheduler()
        let count = Stored(0)
        let seen = Locked<[Int]>([])
        let subscription = count.subscribe(on: manual.scheduler) { _, new in seen.mutate { $0.append(new) } }
        count.value = 1
        subscription.cancel()
        count.value = 2
        manual.runAll()
        #expect(seen.value.isEmpty)
    }

    @Test("subscribe(on: .immediate) calls the handler at once, like subscribe")
    func immediateSchedulerCallsAtOnce() {
        let count = Stored(0)
        let seen = Locked<[Int]>([])
        let subscription = count.subscribe(on: .immediate) { _, new in seen.mutate { $0.append(new) } }
        count.value = 1
        #expect(seen.value == [1])
        withExtendedLifetime(subscription) {}
    }

    @Test("a handler that writes the value it follows gets the updates in order")
    func reentrantWriteKeepsOrder() {
        let count = Stored(0)
        let seen = Locked<[String]>([])
        let subscription = count.subscribe(on: .immediate) { old, new in
            seen.mutate { $0.append("\(old ?? -1)→\(new)") }
            if new == 1 { count.value = 2 }
        }
        count.value = 1
        #expect(seen.value == ["0→1", "1→2"])
        withExtendedLifetime(subscription) {}
    }

    @Test("subscribe(on: .mainActor) on the main actor calls the handler at once")
    @MainActor
    func mainActorOnMainActorIsImmediate() {
        let count = Stored(0)
        let seen = Locked<[Int]>([])
        let subscription = count.subscribe(on: .mainActor) { _, new in seen.mutate { $0.append(new) } }
        count.value = 1
        #expect(seen.value == [1])
        withExtendedLifetime(subscription) {}
    }

    @Test(
        "updates made from several threads reach the handler in order (each old is the previous new), one call at a time"
    )
    func updatesFromSeveralThreads() async {
        let manual = ManualScheduler()
        let count = Stored(0)
        let seen = Locked<[(old: Int?, new: Int)]>([])
        let inside = Locked(0), overlaps = Locked(0)
        let subscription = count.subscribe(on: manual.scheduler) { old, new in
            if inside.mutate({
                $0 += 1; return $0
            }) > 1 {
                overlaps.mutate { $0 += 1 }
            }
            seen.mutate { $0.append((old, new)) }
            inside.mutate { $0 -= 1 }
        }
        let threads = 4, writes = 250
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await onNewThread {
                        for _ in 0..<writes { count.update { $0 += 1 } }
                    }
                }
            }
            group.addTask { await onNewThread { for _ in 0..<200 { manual.runAll() } } }
        }
        manual.runAll()
        // Writes racing on other threads may reach a subscription as one update (as with
        // subscribe(_:_:)); the calls it gets arrive in order: each one's old value is the
        // previous one's new value, and the last is the final value.
        let calls = seen.value
        #expect(calls.first?.old == 0)
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(calls.last?.new == threads * writes)
        #expect(overlaps.value == 0)
        withExtendedLifetime(subscription) {}
    }
}
