import Foundation
import Ripple
import RippleTesting
import Testing

/// A flag and a counter shared by the tasks of a test.
private final class ClockRaceState: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var finished = 0

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
    func finish() { lock.withLock { finished += 1 } }
    var finishedCount: Int { lock.withLock { finished } }
}

/// Review of `TestClock`: a sleeper that begins to sleep while `advance(by:)` runs.
@Suite struct TestClockRaceReviewTests {
    /// Tasks sleep again and again, each time until just after the clock's current instant
    /// (never past the end of the advance), while the clock advances. Whenever one of them
    /// begins to sleep, within the advance, its deadline is within the advanced time: once
    /// `advance(by:)` has returned, the clock is at or past every deadline, so no task may
    /// still sleep on it.
    ///
    /// A stress guard: the window it covers (between the advance's last pass and its move to
    /// the end, once two separate holds of the clock's lock) is a few instructions wide, and
    /// this test did not catch it before the fix.
    @Test("no sleeper whose deadline is within an advance still sleeps once it returned")
    func noSleeperIsLeftBehindByAnAdvance() async {
        let sleepers = 3
        var leftBehind = 0
        for _ in 0..<300 {
            let clock = TestClock()
            let end = TestClock.Instant(offset: .seconds(1))
            let state = ClockRaceState()
            for _ in 0..<sleepers {
                Task.detached {
                    while !state.isStopped {
                        let deadline = min(clock.now.advanced(by: .milliseconds(10)), end)
                        do { try await clock.sleep(until: deadline) } catch { break }
                        // A sleep past the end returns at once: lets the other tasks run.
                        await Task.yield()
                    }
                    state.finish()
                }
            }
            await clock.advance(by: .seconds(1))
            // Every deadline is at most `end`, which the clock has reached.
            if clock.sleeperCount > 0 { leftBehind += 1 }
            state.stop()
            // Lets a sleeper left behind go, so that every task ends.
            var rounds = 0
            while state.finishedCount < sleepers, rounds < 100_000 {
                await clock.advance(by: .zero)
                await Task.yield()
                rounds += 1
            }
            #expect(state.finishedCount == sleepers)
        }
        #expect(leftBehind == 0, "advances that returned with a due sleeper still sleeping: \(leftBehind)")
    }
}
