@testable import Ripple
import Testing
import _RippleThread

/// The primitive the lock sleeps and wakes with on platforms without a futex (Apple's), built
/// and tested on Linux too (`_ripple_parking_wait` and `_ripple_parking_wake` in
/// `_RippleLock.c`). A lost wake-up shows as a test that never ends (the tests block their
/// thread: a time limit cannot end them).
///
/// Each turn is a hand-over between threads, paced by the scheduler: on 2 cores busy with the
/// rest of the suite under ThreadSanitizer, 5 000 turns took 105 to 280 s and held both threads
/// of the cooperative pool, stalling every async test meanwhile. The counts stay small.
@Suite struct ParkingTests {
    /// A word at a stable address, for threads to park on.
    final class Word: @unchecked Sendable {
        let address = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        init(_ value: UInt32 = 0) { address.initialize(to: value) }
        deinit { address.deallocate() }
        var value: UInt32 { _ripple_parking_word_load(address) }
        func set(_ value: UInt32) { _ripple_parking_word_store(address, value) }
        /// Parks until the word is `target` (spurious returns are allowed: it looks again).
        func wait(until target: UInt32) {
            var seen = value
            while seen != target {
                _ripple_parking_wait(address, seen, 0)
                seen = value
            }
        }
    }

    @Test("a wait on a word that no longer holds the expected value returns at once")
    func waitOnAChangedWord() {
        let word = Word(1)
        _ripple_parking_wait(word.address, 0, 0)
        #expect(word.value == 1)
    }

    @Test("a timed wait with no wake-up returns after its timeout")
    func timedWaitReturns() {
        let word = Word(0)
        for _ in 0..<3 { _ripple_parking_wait(word.address, 0, 1_000_000) }
        #expect(word.value == 0)
    }

    @Test("a thread parked on a word wakes once another changes it and wakes it")
    func parkedThreadWakes() {
        let word = Word(0)
        let parked = ThreadLatch(1)
        let done = ThreadLatch(1)
        Thread.detachNewThreadLike {
            parked.arrive()
            word.wait(until: 1)
            done.arrive()
        }
        parked.wait()
        word.set(1)
        _ripple_parking_wake(word.address)
        done.wait()
        #expect(word.value == 1)
    }

    @Test("two threads taking 300 turns through parked waits lose no wake-up")
    func takingTurns() {
        let word = Word(0)
        let turns: UInt32 = 300
        runOnThreads(2) { index in
            // Thread 0 moves the word from even values, thread 1 from odd ones.
            var mine = UInt32(index)
            while mine < turns {
                word.wait(until: mine)
                word.set(mine + 1)
                _ripple_parking_wake(word.address)
                mine += 2
            }
        }
        #expect(word.value == turns)
    }

    @Test(
        "8 threads on words that share the table's buckets each wake only when their own word moves")
    func sharedBuckets() {
        // Words anywhere in memory: with 64 buckets some may share one, and a wake of one word
        // then wakes the others' threads early, which look again.
        let words = (0..<8).map { _ in Word(0) }
        let rounds: UInt32 = 30
        runOnThreads(8) { index in
            let word = words[index]
            let next = words[(index + 1) % 8]
            for round in 0..<rounds {
                // Thread 0 starts each round; every other one waits for its word to reach it.
                if index != 0 { word.wait(until: round + 1) }
                next.set(round + 1)
                _ripple_parking_wake(next.address)
                if index == 0 { word.wait(until: round + 1) }
            }
        }
        #expect(words.allSatisfy { $0.value == rounds })
    }
}
