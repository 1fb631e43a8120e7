import Testing
@testable import Ripple

/// A batch is atomic for readers on other threads: they see none or all of its writes, and
/// no derived value is computed from a mix. Multi-threaded tests are bounded by iteration
/// counts (readers read at least a fixed number of times, and on until the writer is done).
@Suite("Batch atomicity for readers")
struct BatchAtomicityTests {
    @Test("readers on other threads never see half of a batch, and are not blocked by its body")
    func readersSeeAllOrNothing() {
        let a = Stored(0, name: "a")
        let b = Stored(0, name: "b")
        let equal = Computed { a.value == b.value }
        let pair = Computed { [a.value, b.value] }
        let sum = Computed { a.value + b.value }
        let doubledSum = Computed { sum.value * 2 }
        let mixes = Counter()
        let reactionMixes = Counter()
        // Every reader iteration (a full set of checks) advances it.
        let readerProgress = ThreadProgress()
        let batches = 600
        let minimumReads = 300
        // A reaction on each reader thread, re-run by that thread's own writes of `tick`: it
        // reads the pair through one derivation.
        let ticks = (0..<3).map { Stored(0, name: "tick\($0)") }
        let reactions = ticks.map { tick in
            observe {
                _ = tick.value
                let seen = pair.value
                if seen[0] != seen[1] { reactionMixes.increment() }
            }
        }
        runOnThreads(4) { thread in
            if thread == 0 {
                for iteration in 1...batches {
                    batch {
                        a.value = iteration
                        if iteration % 6 == 0 {
                            // Half-way through the batch, wait (without sleeping) until a
                            // reader has made a whole pass of checks: the readers must
                            // neither see `a` yet nor wait for this batch to end.
                            let now = readerProgress.value
                            readerProgress.wait(beyond: now + 1)
                        }
                        b.value = iteration
                    }
                }
                readerProgress.finish()
                return
            }
            var reads = 0
            while reads < minimumReads || !readerProgress.isDone {
                reads += 1
                if !equal.value { mixes.increment() }
                let seen = pair.value
                if seen[0] != seen[1] { mixes.increment() }
                if doubledSum.value % 4 != 0 { mixes.increment() }
                ticks[thread - 1].value = reads
                readerProgress.advance()
            }
        }
        #expect(mixes.value == 0, "reads that saw part of a batch")
        #expect(reactionMixes.value == 0, "reaction runs that saw part of a batch")
        #expect(a.value == batches && b.value == batches)
        _ = reactions
    }

    @Test("a batch a reaction queues (writeInOrder) is applied atomically for readers on other threads")
    func queuedBatchAllOrNothing() {
        let trigger = Stored(0, name: "trigger")
        let a = Stored(0, name: "a")
        let b = Stored(0, name: "b")
        let equal = Computed { a.value == b.value }
        let mixes = Counter()
        let readerProgress = ThreadProgress()
        let rounds = 300
        // Each change of `trigger` queues a batch that writes both values; applied after the
        // reaction's round, on the writing thread.
        let reaction = observe {
            let value = trigger.value
            guard value > 0 else { return }
            writeInOrder {
                a.value = value
                if value % 5 == 0 {
                    let now = readerProgress.value
                    readerProgress.wait(beyond: now + 1)
                }
                b.value = value
            }
        }
        runOnThreads(3) { thread in
            if thread == 0 {
                for round in 1...rounds { trigger.value = round }
                readerProgress.finish()
                return
            }
            var reads = 0
            while reads < 500 || !readerProgress.isDone {
                reads += 1
                if !equal.value { mixes.increment() }
                readerProgress.advance()
            }
        }
        #expect(mixes.value == 0, "reads that saw part of a queued batch")
        #expect(a.value == rounds && b.value == rounds)
        reaction.cancel()
    }

    @Test("two threads' batches writing one value at once each read their own, and both are applied in order")
    func twoBatchesOneValue() {
        let value = Stored(0, name: "value")
        let doubled = Computed { value.value * 2 }
        let first = ThreadProgress()
        let second = ThreadProgress()
        let seen = Recorder<String>()
        runOnThreads(2) { thread in
            if thread == 0 {
                batch {
                    value.value = 1
                    first.advance()  // 1: staged
                    second.wait(beyond: 0)  // the other batch has staged its value too
                    seen.append("first \(value.value) \(doubled.value)")
                }
                first.advance()  // 2: applied
            } else {
                first.wait(beyond: 0)
                batch {
                    value.value = 2
                    value.value = 3
                    second.advance()
                    first.wait(beyond: 1)  // the first batch is applied meanwhile
                    seen.append("second sees \(value.value) \(doubled.value)")
                    value.value = 4
                    seen.append("second \(value.value) \(doubled.value)")
                }
            }
        }
        #expect(Set(seen.all) == ["first 1 2", "second sees 3 6", "second 4 8"])
        #expect(value.value == 4, "the batch applied last wins")
        #expect(value.writeCount == 4, "every write counts")
    }
}
