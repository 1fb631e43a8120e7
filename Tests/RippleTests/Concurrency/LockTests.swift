#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple
import _RippleThread

/// Direct tests of `_Lock`, the one lock Ripple uses. On Linux it is a futex word: a thread
/// that must sleep marks it, the release of a marked word wakes one sleeper, and the release of
/// an unmarked one is a plain store (see `_RippleLock.h`).
@Suite struct LockTests {
    /// A lock that threads share.
    final class Shared: @unchecked Sendable {
        let lock: _Lock
        var count = 0
        var flag = false
        init() { lock = _Lock() }
        // Through copies: `#expect` cannot look into a non-copyable value.
        var isHeld: Bool { lock.isHeldForTesting }
        var isHeldOnce: Bool { lock.isHeldOnce }
        var releasedANestedLevel: Bool { lock.unlockIfNested() }
        var sleepers: Int { lock.sleepersForTesting }
        var waiters: Int { lock.waitersForTesting }
        /// The wake calls the sleepers of `startSleepers` made, each after its release.
        let sleeperWakeCalls = Recorder<Int>()
        var sleepersWakeCalls: Int { sleeperWakeCalls.all.reduce(0, +) }
        var broadcastWakes: Int { lock.broadcastWakesForTesting }
    }

    /// 8 threads on however many cores: on the project's 2-core machine, threads are preempted
    /// while they hold the lock or sleep on it.
    @Test func excludesOtherThreads() {
        let shared = Shared()
        let threads = 8
        let iterations = 20_000
        runOnThreads(threads) { _ in
            for _ in 0..<iterations {
                shared.lock.lock()
                // A read and a write apart: another thread inside would lose increments.
                let count = shared.count
                shared.count = count + 1
                shared.lock.unlock()
            }
        }
        shared.lock.lock()
        #expect(shared.count == threads * iterations)
        shared.lock.unlock()
    }

    @Test("the owner's depth is where Swift reads it: right after the owner word")
    func depthOffset() {
        #expect(MemoryLayout<_ripple_lock_t>.offset(of: \_ripple_lock_t.owner) == 0)
        #expect(MemoryLayout<_ripple_lock_t>.offset(of: \_ripple_lock_t.depth) == MemoryLayout<UInt>.stride)
        let shared = Shared()
        shared.lock.lock()
        shared.lock.lock()
        #expect(shared.lock.depth == 2)
        shared.lock.unlock()
        shared.lock.unlock()
    }

    @Test func isReentrantOnItsOwnersThreadOnly() {
        let shared = Shared()
        #expect(!shared.isHeld)
        shared.lock.lock()
        shared.lock.lock()
        #expect(!shared.isHeldOnce)
        #expect(shared.releasedANestedLevel)
        #expect(shared.isHeldOnce)
        #expect(shared.isHeld)
        #expect(!onOtherThread { shared.lock.isHeldForTesting })
        shared.lock.unlock()
        #expect(!shared.isHeld)
    }

    /// Holding `shared.lock`, starts `count` threads that each take it, set `flag`, count
    /// themselves, release it and record the wake calls they made (in `sleeperWakeCalls`),
    /// and returns once they all sleep on it (not a sleep to order
    /// events: a thread counts itself and marks the word before it sleeps). Wait on the latch
    /// returned after releasing the lock.
    private func startSleepers(_ count: Int, on shared: Shared) -> ThreadLatch {
        let finished = ThreadLatch(count)
        shared.lock.lock()
        for _ in 0..<count {
            Thread.detachNewThreadLike {
                let before = _Lock.wakeCallsOfCallingThreadForTesting
                shared.lock.lock()
                shared.flag = true
                shared.count += 1
                shared.lock.unlock()
                shared.sleeperWakeCalls.append(_Lock.wakeCallsOfCallingThreadForTesting - before)
                finished.arrive()
            }
        }
        while shared.lock.sleepersForTesting < count || !shared.lock.isMarkedForTesting { sched_yield() }
        return finished
    }

    /// A thread that found the lock held long enough to go to sleep is woken by the release.
    @Test func wakesAThreadThatSleeps() {
        let shared = Shared()
        let finished = startSleepers(1, on: shared)
        #expect(!shared.flag)
        let before = _Lock.wakeCallsOfCallingThreadForTesting
        shared.lock.unlock()
        #expect(_Lock.wakeCallsOfCallingThreadForTesting - before == 1)
        finished.wait()
        shared.lock.lock()
        #expect(shared.flag)
        #expect(shared.sleepers == 0)
        shared.lock.unlock()
        #expect(shared.sleepersWakeCalls == 0)
    }

    /// Three sleepers: the release wakes one, which takes the lock marked (others sleep), so
    /// that its own release wakes the next. One wake call per sleeper, and at most one more.
    @Test func wakesEverySleeperInTurn() {
        let shared = Shared()
        let sleepers = 3
        let finished = startSleepers(sleepers, on: shared)
        let before = _Lock.wakeCallsOfCallingThreadForTesting
        shared.lock.unlock()
        let calls = _Lock.wakeCallsOfCallingThreadForTesting - before
        finished.wait()
        shared.lock.lock()
        #expect(shared.count == sleepers)
        #expect(shared.sleepers == 0)
        shared.lock.unlock()
        #expect(calls == 1)
        #expect(calls + shared.sleepersWakeCalls <= sleepers + 1)
    }

    /// A release that overwrote a sleeper's mark (a race between two instructions, forced here)
    /// wakes nobody; the sleeper finds the lock free by itself, within its time slice.
    ///
    /// The sleeper's slice may end while this thread erases the mark and releases (this thread
    /// preempted between the two, on a loaded machine): then the sleeper marks the word again,
    /// and either this release wakes it, or the sleeper finds the lock free as it marks and
    /// takes it marked, and its own release makes the call (the one call too many that
    /// `_RippleLock.h` allows). Whichever way, it gets the lock, with one wake call at most in
    /// all.
    @Test func aSleeperWhoseMarkWasOverwrittenStillGetsTheLock() {
        let shared = Shared()
        let finished = startSleepers(1, on: shared)
        shared.lock.eraseMarkForTesting()
        let before = _Lock.wakeCallsOfCallingThreadForTesting
        shared.lock.unlock()
        let calls = _Lock.wakeCallsOfCallingThreadForTesting - before
        finished.wait()
        shared.lock.lock()
        #expect(shared.flag)
        #expect(shared.sleepers == 0)
        shared.lock.unlock()
        #expect(calls + shared.sleepersWakeCalls <= 1, "release: \(calls), sleeper: \(shared.sleepersWakeCalls)")
    }

    /// The woken thread takes the lock unmarked when no other thread sleeps, so its release
    /// makes no call; nor does any release after it.
    @Test func releasesMakeNoCallOnceNobodySleeps() {
        let shared = Shared()
        let finished = startSleepers(1, on: shared)
        let before = _Lock.wakeCallsOfCallingThreadForTesting
        shared.lock.unlock()
        finished.wait()
        #expect(shared.sleepersWakeCalls == 0)
        for _ in 0..<1_000 {
            shared.lock.lock()
            shared.lock.unlock()
        }
        #expect(_Lock.wakeCallsOfCallingThreadForTesting - before == 1)
    }

    /// `wait()` releases the lock until a `broadcast()`, and holds it again when it returns.
    @Test func waitsForABroadcast() {
        let shared = Shared()
        release(startWaiter(on: shared), on: shared, broadcasts: 1)
        shared.lock.lock()
        #expect(shared.count == 1)
        #expect(shared.waiters == 0)
        shared.lock.unlock()
    }

    /// Only the first broadcast after a thread began to wait makes a call: the next ones find
    /// it awake, or about to see `signal` changed.
    @Test func aSecondBroadcastMakesNoCall() {
        let shared = Shared()
        release(startWaiter(on: shared), on: shared, broadcasts: 2)
        #expect(shared.broadcastWakes == 1)
        shared.lock.lock()
        shared.lock.broadcast()
        shared.lock.unlock()
        #expect(shared.broadcastWakes == 1)
    }

    /// Starts a thread that waits for `flag` in `wait()`, then sets `count` to 1 if it holds
    /// the lock once; returns once it waits.
    private func startWaiter(on shared: Shared) -> ThreadLatch {
        let finished = ThreadLatch(1)
        Thread.detachNewThreadLike {
            shared.lock.lock()
            while !shared.flag { shared.lock.wait() }
            shared.count = shared.lock.isHeldOnce ? 1 : -1
            shared.lock.unlock()
            finished.arrive()
        }
        while shared.lock.waitersForTesting == 0 { sched_yield() }
        return finished
    }

    /// Sets `flag` and broadcasts `broadcasts` times, holding the lock, then waits until the
    /// waiter `startWaiter` started has finished.
    private func release(_ waiter: ThreadLatch, on shared: Shared, broadcasts: Int) {
        shared.lock.lock()
        shared.flag = true
        for _ in 0..<broadcasts { shared.lock.broadcast() }
        shared.lock.unlock()
        waiter.wait()
    }

}
