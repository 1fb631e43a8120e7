#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// Direct tests of `_Lock`, the one lock Ripple uses. On Linux its release is a plain store,
/// and a thread that must sleep first forces a process-wide barrier (see `_RippleLock.h`);
/// where the kernel lacks that barrier, or when a test asks, the release makes a full fence
/// instead. Every test here runs with both kinds.
@Suite struct LockTests {
    /// A lock that threads share.
    final class Shared: @unchecked Sendable {
        let lock: _Lock
        var count = 0
        var flag = false
        init(fencedRelease: Bool) { lock = _Lock(fencedRelease: fencedRelease) }
        // Through copies: `#expect` cannot look into a non-copyable value.
        var isHeld: Bool { lock.isHeldForTesting }
        var isHeldOnce: Bool { lock.isHeldOnce }
        var releasedANestedLevel: Bool { lock.unlockIfNested() }
        #if !canImport(Darwin)
        var sleepers: Int { lock.sleepersForTesting }
        var waiters: Int { lock.waitersForTesting }
        #endif
    }

    @Test(arguments: [false, true])
    func excludesOtherThreads(fencedRelease: Bool) {
        let shared = Shared(fencedRelease: fencedRelease)
        let threads = 4
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

    @Test(arguments: [false, true])
    func isReentrantOnItsOwnersThreadOnly(fencedRelease: Bool) {
        let shared = Shared(fencedRelease: fencedRelease)
        #expect(!shared.isHeld)
        shared.lock.lock()
        shared.lock.lock()
        #expect(!shared.isHeldOnce)
        #if canImport(Darwin)
        // The recursive mutex counts its own levels: `unlockIfNested()` leaves them to `unlock()`.
        shared.lock.unlock()
        #else
        #expect(shared.releasedANestedLevel)
        #endif
        #expect(shared.isHeldOnce)
        #expect(shared.isHeld)
        #expect(!onOtherThread { shared.lock.isHeldForTesting })
        shared.lock.unlock()
        #expect(!shared.isHeld)
    }

    #if !canImport(Darwin)
    /// A thread that found the lock held long enough to go to sleep is woken by the release.
    @Test(arguments: [false, true])
    func wakesAThreadThatSleeps(fencedRelease: Bool) {
        let shared = Shared(fencedRelease: fencedRelease)
        let finished = ThreadLatch(1)
        shared.lock.lock()
        Thread.detachNewThreadLike {
            shared.lock.lock()
            shared.flag = true
            shared.lock.unlock()
            finished.arrive()
        }
        // Not a sleep to order events: the other thread registers before it sleeps.
        while shared.lock.sleepersForTesting == 0 { sched_yield() }
        #expect(!shared.flag)
        shared.lock.unlock()
        finished.wait()
        shared.lock.lock()
        #expect(shared.flag)
        #expect(shared.sleepers == 0)
        shared.lock.unlock()
    }

    /// `wait()` releases the lock until a `broadcast()`, and holds it again when it returns.
    @Test(arguments: [false, true])
    func waitsForABroadcast(fencedRelease: Bool) {
        let shared = Shared(fencedRelease: fencedRelease)
        let finished = ThreadLatch(1)
        Thread.detachNewThreadLike {
            shared.lock.lock()
            while !shared.flag { shared.lock.wait() }
            shared.count = shared.lock.isHeldOnce ? 1 : -1
            shared.lock.unlock()
            finished.arrive()
        }
        while shared.lock.waitersForTesting == 0 { sched_yield() }
        shared.lock.lock()
        shared.flag = true
        shared.lock.broadcast()
        shared.lock.unlock()
        finished.wait()
        shared.lock.lock()
        #expect(shared.count == 1)
        #expect(shared.waiters == 0)
        shared.lock.unlock()
    }

    @Test func releaseKindFollowsTheKernel() {
        let forced = _Lock(fencedRelease: true).usesFencedRelease
        #expect(forced)
        let chosen = _Lock().usesFencedRelease
        #expect(chosen == !_Lock.usesProcessBarrier)
    }
    #endif
}
