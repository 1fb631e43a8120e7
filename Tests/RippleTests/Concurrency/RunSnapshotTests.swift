import Testing
@testable import Ripple

/// A reaction's run never sees part of another thread's change: once a batch (or a write)
/// changes something the run has read, the run reads everything that change wrote as it was
/// before it, and runs again afterwards (see `_RunSnapshots`).
@Suite("Run snapshots")
struct RunSnapshotTests {
    final class Token: Sendable {}

    /// The program that found the problem (stop 18), as a test: eight threads each commit
    /// batches that keep two values equal, and reactions (run on whichever thread delivers
    /// them, so on all eight) read them one at a time, directly and through a computed value,
    /// with other reads between. Every run must see the two equal. Before the snapshots, runs
    /// saw the pair differ (the reaction's first read before another thread's batch, the second
    /// after it).
    @Test("eight threads of batches: every reaction run sees each batch whole")
    func eightThreadStress() {
        let first = Stored(0)
        let second = Stored(0)
        let filler = (0..<16).map { Stored($0) }
        let secondTimesTwo = Computed { second.value * 2 }
        let mismatches = Counter()
        let runs = Counter()
        let direct = observe {
            let a = first.value
            var padding = 0
            for value in filler { padding &+= value.value }
            let b = second.value
            if a != b { mismatches.increment() }
            runs.increment()
            _ = padding
        }
        let throughComputed = observe {
            let a = first.value
            var padding = 0
            for value in filler { padding &+= value.value }
            if secondTimesTwo.value != a * 2 { mismatches.increment() }
            _ = padding
        }
        let reversed = observe {
            let b = second.value
            var padding = 0
            for value in filler.reversed() { padding &+= value.value }
            if first.value != b { mismatches.increment() }
            _ = padding
        }
        runOnThreads(8) { thread in
            for iteration in 1...1_500 {
                let value = thread * 1_000_000 + iteration
                batch {
                    first.value = value
                    second.value = value
                }
            }
        }
        #expect(mismatches.value == 0)
        #expect(runs.value > 1)
        #expect(first.value == second.value)
        direct.cancel()
        throughComputed.cancel()
        reversed.cancel()
        // Nothing is kept once the runs that held the batches have ended.
        #expect(_graph.withLock { first._stagedCount == 0 && second._stagedCount == 0 })
    }

    @Test("a computed value read after another thread's batch is evaluated on the values before it")
    func computedValueReadInARunHoldingAChange() {
        let a = Stored(0)
        let b = Stored(0)
        let tenTimesB = Computed { b.value * 10 }
        let trigger = Stored(0)
        let seen = Recorder<[Int]>()
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            let first = a.value
            if first == 0 { paused.pause() }
            seen.append([first, tenTimesB.value, b.value])
        }
        paused.run(by: trigger) {
            batch {
                a.value = 1
                b.value = 1
            }
        }
        // The first run saw the state before the batch, computed value included; the next, after.
        #expect(seen.all == [[0, 0, 0], [1, 10, 1]])
        // The shared computed value is the committed one.
        #expect(tenTimesB.value == 10)
        reaction.cancel()
    }

    @Test("a change that reaches a run only through a computed value an earlier change left stale is held too")
    func changeReachingARunThroughAStaleComputedValue() {
        let x = Stored(0)
        let y = Stored(0)
        let z = Stored(0)
        let sum = Computed { x.value + y.value }
        let trigger = Stored(0)
        let seen = Recorder<[Int]>()
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            let first = sum.value
            if first == 0 { paused.pause() }
            seen.append([first, z.value, sum.value])
        }
        paused.run(by: trigger) {
            // Marks `sum` stale; nobody reads it before the batch, whose marking stops there.
            x.value = 1
            batch {
                y.value = 1
                z.value = 1
            }
        }
        #expect(seen.all == [[0, 0, 0], [2, 1, 2]])
        reaction.cancel()
    }

    @Test("a run that holds a change which reached it only past a stale computed value runs again")
    func runHoldingAChangeThatDidNotMarkItRunsAgain() {
        let x = Stored(0)
        let t = Stored(0)
        let c = Computed { x.value }
        let seen = Recorder<[Int]>()
        let paused = PausedRun()
        let reaction = observe {
            let tv = t.value
            // The run the batch below starts: its check stopped at `t`, so `c` is still stale.
            if tv == 1, seen.count == 1 { paused.pause() }
            seen.append([tv, c.value])
        }
        paused.run(starting: {
            batch {
                t.value = 1
                x.value = 1
            }
        }) {
            // Reaches the paused run only past the stale `c`: its marking stops there.
            x.value = 2
        }
        // The paused run read `c` as it was before the change it held, then ran again.
        #expect(seen.all == [[0, 0], [1, 1], [1, 2]])
        reaction.cancel()
    }

    @Test("a run nested in another (a reaction created by a run) does not stop the outer one holding a change")
    func outerRunHoldsAChangeWhileANestedRunIsInProgress() {
        let a = Stored(0)
        let b = Stored(0)
        let trigger = Stored(0)
        let seen = Recorder<[Int]>()
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            let first = a.value
            if first == 0 {
                // The batch lands while the child's first run, nested in this one, is in progress.
                observe { paused.pause() }.cancel()
            }
            seen.append([first, b.value])
        }
        paused.run(by: trigger) {
            batch {
                a.value = 1
                b.value = 1
            }
        }
        #expect(seen.all == [[0, 0], [1, 1]])
        reaction.cancel()
    }

    @Test("a batch that touches nothing a run has read keeps nothing: what it replaced is released at once")
    func unrelatedBatchKeepsNothing() {
        let unrelated = Stored(0)
        let trigger = Stored(0)
        let holder = Stored<Token?>(nil, equals: nil)
        let other = Stored(0)
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            holder.value = token
        }
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            _ = unrelated.value
            paused.pause()
        }
        paused.run(by: trigger) {
            // A run is in progress on the other thread, but it read neither value.
            batch {
                holder.value = nil
                other.value = 1
            }
            #expect(weakToken == nil)
            #expect(_graph.withLock { holder._stagedCount == 0 })
        }
        reaction.cancel()
    }

    @Test("a value a change replaced is kept while a run that read it is in progress, and released when it ends")
    func keptValueIsReleasedWhenTheRunEnds() {
        let holder = Stored<Token?>(nil, equals: nil)
        let trigger = Stored(0)
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            holder.value = token
        }
        let sawToken = Recorder<Bool>()
        let paused = PausedRun()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            let before = holder.value != nil
            if before { paused.pause() }
            // Read again in the same run: still the value it read first.
            sawToken.append(before && holder.value != nil)
        }
        paused.run(by: trigger) {
            batch { holder.value = nil }
            // The run on the other thread read the token and may read it again: it is kept.
            #expect(weakToken != nil)
        }
        #expect(sawToken.all == [true, false])
        #expect(weakToken == nil)
        #expect(_graph.withLock { holder._stagedCount == 0 })
        reaction.cancel()
    }
}
