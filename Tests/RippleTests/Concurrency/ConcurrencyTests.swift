import Testing
@testable import Ripple

@Suite("Threads")
struct ConcurrencyTests {
    @Test("many tasks writing and reading a shared graph leave it consistent")
    func stress() async {
        let sources = (0..<4).map { Stored($0) }
        let sum = Computed { sources.reduce(0) { $0 + $1.value } }
        let doubled = Computed { sum.value * 2 }
        // One derivation is evaluated atomically: it must always see sum and doubled agree.
        let consistent = Computed { doubled.value == sum.value * 2 }
        let inconsistent = Counter()
        let runs = Counter()
        let reaction = observe {
            _ = sum.value
            if !consistent.value { inconsistent.increment() }
            runs.increment()
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for iteration in 0..<2_000 {
                        sources[worker].value = iteration
                        if !consistent.value { inconsistent.increment() }
                        if iteration % 100 == 0 {
                            batch {
                                sources[worker].value = -iteration
                                sources[worker].value = iteration
                            }
                        }
                    }
                }
            }
        }
        let final = sources.reduce(0) { $0 + $1.value }
        #expect(sum.value == final)
        #expect(doubled.value == final * 2)
        #expect(final == 4 * 1_999)
        #expect(inconsistent.value == 0)
        #expect(runs.value > 1)
        reaction.cancel()
    }

    /// Found at stop 18 and known until the run snapshots (`_RunSnapshots`): a reaction's run
    /// reads each value when it reaches it, with the lock released between reads, so its two
    /// reads can fall on both sides of another thread's batch. The run used to see half of that
    /// batch. Now the batch, which changed what the run read first, is read as it was before it
    /// for the rest of the run, and the reaction runs again after it, with both.
    @Test("a reaction's run never sees half of another thread's batch")
    func reactionRunNeverStraddlesABatchOfAnotherThread() {
        let a = Stored(0)
        let b = Stored(0)
        let trigger = Stored(0)
        let pairs = Recorder<[Int]>()
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            let first = a.value
            // The run triggered below, on the other thread: the batch lands in between.
            if first == 0 { paused.pause() }
            pairs.append([first, b.value])
        }
        paused.run(by: trigger) {
            batch {
                a.value = 1
                b.value = 1
            }
        }
        #expect(pairs.all.allSatisfy { $0[0] == $0[1] })
        // Runs again after the batch: its last run saw both writes.
        #expect(pairs.all.last == [1, 1])
        reaction.cancel()
    }

    @Test("a reaction may block on another thread that writes, without deadlock")
    func reactionMayWriteFromAnotherThread() async {
        let trigger = Stored(0)
        let echo = Stored(0)
        let reaction = observe {
            let value = trigger.value
            guard value > 0 else { return }
            // Another thread writes and reads the graph while this reaction is running.
            let done = DispatchSemaphoreLike()
            Thread.detachNewThreadLike {
                echo.value = value * 10
                _ = echo.value
                done.signal()
            }
            done.wait()
        }
        trigger.value = 1
        #expect(echo.value == 10)
        reaction.cancel()
    }

    @Test("a reaction can run on a named actor")
    func reactionOnActor() async {
        actor Renderer {
            var rendered: [Int] = []
            func append(_ value: Int) { rendered.append(value) }
        }
        let renderer = Renderer()
        let value = Stored(1)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscription = observe(on: renderer) { renderer in
            let current = value.value
            renderer.append(current)
            continuation.yield(current)
        }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        value.value = 2
        #expect(await iterator.next() == 2)
        #expect(await renderer.rendered == [1, 2])
        subscription.cancel()
    }

    @Test("a reaction can run on the main actor")
    func reactionOnMainActor() async {
        let value = Stored(1)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscription = observeOnMainActor {
            MainActor.preconditionIsolated()
            continuation.yield(value.value)
        }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        value.value = 2
        #expect(await iterator.next() == 2)
        subscription.cancel()
    }

    @Test("reactions created on many threads at once each run and cancel cleanly")
    func concurrentSubscriptions() async {
        let value = Stored(0)
        let runs = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for iteration in 0..<300 {
                        let subscription = observe {
                            _ = value.value; runs.increment()
                        }
                        value.value = iteration
                        subscription.cancel()
                    }
                }
            }
        }
        #expect(runs.value >= 1_200)
        #expect(!value.hasObserversForTesting)
    }
}
