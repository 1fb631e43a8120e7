#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import Testing
@testable import Ripple

/// The first step of a read (`_Graph+FastRead.swift`): a value that is up to date, read again by
/// the derivation or reaction that read it last time, is read by functions that release
/// nothing; every other read goes on along the general path. These tests check that each kind
/// of read gives the right value and the right dependencies whichever path it takes, and, in
/// debug builds (which count the reads of each path per thread), that the common case does take
/// the fast path and each way out takes the general one.
///
/// Which path a read takes also depends on the other threads (a batch staging anywhere sends
/// computed reads down the general path), so the counts are checked in a process of their own
/// (an exit test), where no other test runs.
@Suite struct FastReadTests {
    /// What a scenario saw, and the reads it made on its thread, by path (zeros in builds
    /// without the invariant checks, which do not count).
    struct Outcome {
        var values: [Int] = []
        var fast = 0
        var general = 0
        /// Of `fast`, the reads recorded inside a derivation without taking the lock again.
        var inDerivation = 0
    }

    /// Runs `body`, counting the reads it makes on this thread.
    static func counting(_ body: () -> [Int]) -> Outcome {
        #if RIPPLE_INVARIANTS
        let context = _ThreadContext.current
        let fast = context.fastReads
        let general = context.generalReads
        let inDerivation = context.readsInDerivation
        let values = body()
        return Outcome(
            values: values,
            fast: context.fastReads - fast,
            general: context.generalReads - general,
            inDerivation: context.readsInDerivation - inDerivation
        )
        #else
        Outcome(values: body())
        #endif
    }

    /// Stops the exit test's process with a failure unless `condition` holds.
    static func require(_ condition: Bool) {
        if !condition { exit(1) }
    }

    // MARK: Scenarios

    /// A derivation (a + b + a) and a reaction that read what they read last time.
    static func rereads() -> Outcome {
        let a = Stored(1)
        let b = Stored(2)
        let sum = Computed { a.value + b.value + a.value }
        nonisolated(unsafe) var seen: [Int] = []
        let reaction = observe { seen.append(sum.value) }
        var outcome = counting {
            a.value = 5
            return seen
        }
        outcome.values = seen
        reaction.cancel()
        return outcome
    }

    /// A derivation whose second source changes from x to y.
    static func newEdge() -> (outcome: Outcome, afterX: [Int], afterY: [Int]) {
        let flag = Stored(false)
        let x = Stored(1)
        let y = Stored(2)
        let pick = Computed { flag.value ? y.value : x.value }
        nonisolated(unsafe) var seen: [Int] = []
        let reaction = observe { seen.append(pick.value) }
        let outcome = counting {
            flag.value = true
            return seen
        }
        x.value = 10
        let afterX = seen
        y.value = 20
        let afterY = seen
        reaction.cancel()
        return (outcome, afterX, afterY)
    }

    /// An unobserved chain read at the top level after a write, then again.
    static func staleChain() -> (first: Outcome, again: Outcome) {
        let a = Stored(1)
        let b = Computed { a.value + 1 }
        let c = Computed { b.value * 2 }
        _ = c.value
        a.value = 2
        let first = counting { [c.value] }
        let again = counting { [c.value] }
        return (first, again)
    }

    /// Reads inside a batch that wrote what they read.
    static func readsInABatch() -> Outcome {
        let a = Stored(1)
        let doubled = Computed { a.value * 2 }
        _ = doubled.value
        return counting {
            batch {
                a.value = 5
                return [a.value, doubled.value]
            }
        }
    }

    /// Top-level reads of an up-to-date computed value: outside any scope, then once armed by
    /// a read inside `withObservationTracking`. Returns the general ends of each.
    static func topLevelReadEnds() -> (unarmed: Int, armed: Int, values: [Int]) {
        #if RIPPLE_INVARIANTS
        let a = Stored(1)
        let doubled = Computed { a.value * 2 }
        let context = _ThreadContext.current
        var values = [doubled.value]
        let before = context.generalUntrackedReadEnds
        values.append(doubled.value)
        values.append(doubled.value)
        let unarmed = context.generalUntrackedReadEnds - before
        withObservationTracking {
            _ = doubled.value
        } onChange: {
        }
        let beforeArmed = context.generalUntrackedReadEnds
        values.append(doubled.value)
        return (unarmed, context.generalUntrackedReadEnds - beforeArmed, values)
        #else
        return (0, 0, [])
        #endif
    }

    // MARK: Tests

    @Test("a derivation and a reaction that read what they read last time get the right values")
    func rereadsAreRight() {
        #expect(Self.rereads().values == [4, 12])
    }

    #if RIPPLE_INVARIANTS
    @Test("a derivation and a reaction that read what they read last time take the fast path")
    func rereadsAreFast() async {
        await #expect(processExitsWith: .success) {
            let outcome = FastReadTests.rereads()
            // The derivation reads a, b and a again; the reaction reads sum: each as last time.
            FastReadTests.require(outcome.general == 0)
            FastReadTests.require(outcome.fast == 4)
        }
    }

    @Test("a top-level read of an up-to-date computed value ends without the general path, unless Observation armed it")
    func topLevelReadsEndFast() async {
        await #expect(processExitsWith: .success) {
            let ends = FastReadTests.topLevelReadEnds()
            FastReadTests.require(ends.values == [2, 2, 2, 2])
            FastReadTests.require(ends.unarmed == 0)
            // Armed: the access goes to its watcher's subject, on the general path.
            FastReadTests.require(ends.armed == 1)
        }
    }

    @Test("inside a derivation, whose thread holds the lock, a read is recorded without taking the lock again")
    func readsInADerivationTakeNoLock() async {
        await #expect(processExitsWith: .success) {
            let outcome = FastReadTests.rereads()
            // The derivation's three reads; not the reaction's, whose body runs unlocked.
            FastReadTests.require(outcome.inDerivation == 3)
        }
    }
    #endif

    /// A reaction's read through the fast path, made while another thread waits for a
    /// read-modify-write (`_Lock.wait()`, which releases the lock without the outermost
    /// release's work) with an entry of its own in `releasedUnderLock` (the one that asks for
    /// the delivery of its trace events): the read finds the entry at its outermost unlock and
    /// leaves it for the waiting thread's release, which delivers the events. Returns the
    /// values read, whether the read began with W waiting and the entry queued, and the events
    /// the waiting thread had left pending afterwards.
    static func fastReadWhileAnotherThreadWaits() -> (values: [Int], setUp: Bool, x: Int, leftPending: [Int]) {
        let x = Stored(0, name: "fastRead.wait.x")
        let tick = Stored(0, name: "fastRead.wait.tick")
        let bHolding = DispatchSemaphoreLike(), bGo = DispatchSemaphoreLike()
        let wWrote = DispatchSemaphoreLike(), wGo = DispatchSemaphoreLike(), wDone = DispatchSemaphoreLike()
        // W's context: set before W signals `wWrote`, read after.
        let waiter = Cell<UnsafeMutableRawPointer?>(nil)
        let leftPending = Recorder<Int>()
        let values = Recorder<Int>()
        let setUp = Cell(false)
        // B holds `x` for its batch's read-modify-write until told to end the batch.
        Thread.detachNewThreadLike {
            batch {
                x.update { $0 += 10 }
                bHolding.signal()
                bGo.wait()
            }
        }
        // W's batch writes `x` before any tracer is installed; its commit, once one is, stages
        // the write (recording an event, which queues an entry), then waits for B.
        Thread.detachNewThreadLike {
            bHolding.wait()
            waiter.value = Unmanaged.passUnretained(_ThreadContext.current).toOpaque()
            batch {
                x.value = 1
                wWrote.signal()
                wGo.wait()
            }
            leftPending.append(_graph.withLock { _ThreadContext.current.pendingTraces.count })
            wDone.signal()
        }
        wWrote.wait()
        let reaction = observe {
            guard tick.value == 1 else { return }
            wGo.signal()
            // Until W waits for B (the raw lock: `withLock` would take W's entry). Bounded:
            // W waits as soon as it takes the lock.
            var spins = 0
            while spins < 10_000_000 {
                _graph.lock.lock()
                let context = Unmanaged<_ThreadContext>.fromOpaque(waiter.value!).takeUnretainedValue()
                // Nothing else runs in this process to take it before the reads below. (A token
                // for the lock taken above, ended without the graph's release, which would
                // drain the queue this test needs.)
                let held = _HeldLock()
                let waiting = held[waitingFor: context] != nil
                setUp.value = waiting && !_graph.state(held).releasedUnderLock.isEmpty
                held.endWithoutReleasing()
                _graph.lock.unlock()
                if waiting { break }
                sched_yield()
                spins += 1
            }
            // Read by this run already: the fast path, taking the lock outermost.
            values.append(tick.value)
            bGo.signal()
        }
        withTracer(TraceRecorder()) { tick.value = 1 }
        wDone.wait()
        reaction.cancel()
        return (values.all, setUp.value, x.value, leftPending.all)
    }

    @Test("a fast read while another thread waits for a read-modify-write with a release queued")
    func fastReadWhileAnotherThreadWaits() async {
        await #expect(processExitsWith: .success) {
            let outcome = FastReadTests.fastReadWhileAnotherThreadWaits()
            FastReadTests.require(outcome.setUp)
            FastReadTests.require(outcome.values == [1])
            FastReadTests.require(outcome.x == 1)
            // The waiting thread's events were delivered at its own release.
            FastReadTests.require(outcome.leftPending == [0])
        }
    }

    @Test("a read that needs an edge of its own is tracked, and the edge it replaces is dropped")
    func newEdgesAreTracked() {
        let (outcome, afterX, afterY) = Self.newEdge()
        #expect(outcome.values == [1, 2])
        #expect(afterX == [1, 2], "x is no longer a source")
        #expect(afterY == [1, 2, 20])
    }

    #if RIPPLE_INVARIANTS
    @Test("a read that needs an edge of its own takes the general path")
    func newEdgesTakeTheGeneralPath() async {
        await #expect(processExitsWith: .success) {
            // y replaces x as pick's second source.
            FastReadTests.require(FastReadTests.newEdge().outcome.general == 1)
        }
    }
    #endif

    @Test("a value that is not up to date is brought up to date")
    func staleValuesAreBroughtUpToDate() {
        let (first, again) = Self.staleChain()
        #expect(first.values == [6])
        #expect(again.values == [6])
    }

    #if RIPPLE_INVARIANTS
    @Test("a value that is not up to date takes the general path, and the next read the fast one")
    func staleValuesTakeTheGeneralPath() async {
        await #expect(processExitsWith: .success) {
            let (first, again) = FastReadTests.staleChain()
            // c takes the general path; checking c's sources brings b up to date first, so c's
            // derivation then reads b through the fast path.
            FastReadTests.require(first.general == 1)
            FastReadTests.require(again.general == 0 && again.fast == 1)
        }
    }
    #endif

    @Test("inside a batch, reads see the batch's writes")
    func readsInABatchSeeItsWrites() {
        #expect(Self.readsInABatch().values == [5, 10])
    }

    #if RIPPLE_INVARIANTS
    @Test("inside a batch, reads take the general path")
    func readsInABatchTakeTheGeneralPath() async {
        await #expect(processExitsWith: .success) {
            let outcome = FastReadTests.readsInABatch()
            // a, doubled, and a again inside doubled's derivation in the batch's view.
            FastReadTests.require(outcome.general == 3 && outcome.fast == 0)
        }
    }
    #endif

    @Test("reads inside untracked { } in a derivation are not recorded")
    func untrackedReadsAreNotRecorded() {
        let a = Stored(1)
        let b = Stored(1)
        nonisolated(unsafe) var evaluations = 0
        let c = Computed {
            evaluations += 1
            return a.value + untracked { b.value }
        }
        let reaction = observe { _ = c.value }
        #expect(evaluations == 1)
        b.value = 2
        #expect(evaluations == 1)
        a.value = 2
        #expect(evaluations == 2)
        #expect(c.value == 4)
        b.value = 3
        #expect(evaluations == 2)
        reaction.cancel()
    }

    @Test("the first read on a new thread creates the thread's context; both reads see the value")
    func firstReadOnAThread() {
        let a = Stored(7)
        let doubled = Computed { a.value * 2 }
        let reaction = observe { _ = doubled.value }
        nonisolated(unsafe) var values: [Int] = []
        let done = DispatchSemaphoreLike()
        Thread.detachNewThreadLike {
            values.append(doubled.value)
            values.append(doubled.value)
            done.signal()
        }
        done.wait()
        #expect(values == [14, 14])
        reaction.cancel()
    }

    @Test("reads inside a read-modify-write keep the compound assignment atomic")
    func readsInAReadModifyWrite() {
        let count = Stored(0)
        runOnThreads(4) { _ in
            for _ in 0..<250 { count.value += 1 }
        }
        #expect(count.value == 1000)
    }
}
