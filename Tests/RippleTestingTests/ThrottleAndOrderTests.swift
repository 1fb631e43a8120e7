import Ripple
import RippleStore
import RippleTesting
import Testing

/// A clock whose time the test sets, and whose sleepers wake only when the test wakes them: a
/// timer that fires late, as one does on a busy machine.
private final class LateClock: Clock, @unchecked Sendable {
    typealias Instant = TestClock.Instant

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = _Lock()
    private var current = Instant()
    private var sleepers: [Sleeper] = []
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    /// Sets the time without waking anyone.
    func set(_ offset: Duration) {
        lock.withLock { current = Instant(offset: offset) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                sleepers.append(Sleeper(deadline: deadline, continuation: continuation))
                let count = sleepers.count
                let ready = watchers.filter { $0.count <= count }.map(\.continuation)
                watchers.removeAll { $0.count <= count }
                return ready
            }
            for watcher in ready { watcher.resume() }
        }
    }

    /// Returns when `count` tasks sleep on the clock.
    func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if sleepers.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Wakes the sleepers whose deadline is reached (all of them with `everyone`).
    func wake(everyone: Bool = false) {
        let due = lock.withLock { () -> [Sleeper] in
            let due = sleepers.filter { everyone || $0.deadline <= current }
            sleepers.removeAll { everyone || $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

/// Effects through the test store and a store driven by a late clock.
@Suite struct ThrottleAndOrderTests {
    /// Yields until `done` holds, at most 10 000 times.
    private static func yield(until done: () -> Bool) async {
        var checks = 0
        while !done(), checks < 10_000 {
            await Task.yield()
            checks += 1
        }
    }

    /// A throttled effect that is a later step of a `concat` runs in the concat's task: it must
    /// stop when its throttle id is cancelled, as it does when it is not in a concat.
    @Test func aThrottledStepOfAConcatStopsWhenItsIDIsCancelled() async {
        let clock = TestClock()
        let store = TestStore(
            reducer: Scripted(effects: { n in
                if n == 1 { return .cancel(id: "t") }
                return .concat(
                    .send(.log("go")),
                    Effect.run { send in
                        try await clock.sleep(for: .seconds(5))
                        await send(.log("late"))
                    }
                    .throttle(id: "t", for: .seconds(1), latest: true)
                )
            }),
            initialState: Scripted.State(),
            clock: clock
        )
        await store.send(.start(0))
        await store.receive(.log("go")) { $0.log = ["go"] }
        await store.send(.start(1))
        await store.advance(by: .seconds(5))
        #expect(store.receivedActions.isEmpty)
        await store.skipReceivedActions()
        await store.finish()
    }

    /// The test store receives the actions of `.merge(.create { … }, .send(.a))` in the order a
    /// real store reduces them: `.a` (sent at once, reduced right after the action) first, then
    /// what the `create` sent (queued).
    @Test func theTestStoreReceivesInTheOrderTheStoreReduces() async {
        let effects: @Sendable (Int) -> Effect<Scripted.Action> = { _ in
            .merge(
                .create { continuation in
                    continuation.send(.log("create"))
                    continuation.finish()
                },
                .send(.log("send"))
            )
        }
        let real = ReducerStore(reducer: Scripted(effects: effects), initialState: Scripted.State())
        real.send(.start(0))
        #expect(real.currentState.log == ["send", "create"])

        let store = TestStore(reducer: Scripted(effects: effects), initialState: Scripted.State())
        await store.send(.start(0))
        #expect(store.receivedActions == [.log("send"), .log("create")])
        await store.skipReceivedActions()
        await store.finish()
    }

    /// A throttled effect held in a window starts when the window closes, even when the window's
    /// timer fires late and another throttled effect arrives first: the held one is due, runs,
    /// and opens the next window, which holds the newcomer.
    @Test func aHeldThrottledEffectIsNotLostWhenItsTimerIsLate() async throws {
        let clock = LateClock()
        defer { clock.wake(everyone: true) }
        let store = ReducerStore(
            reducer: Scripted(effects: { n in
                Effect.send(.log("\(n)")).throttle(id: "t", for: .seconds(1), latest: true)
            }),
            initialState: Scripted.State(),
            clock: clock
        )
        store.send(.start(1))  // 0 s: runs, the window ends at 1 s
        clock.set(.milliseconds(500))
        store.send(.start(2))  // held until 1 s
        await clock.waitForSleepers(1)
        clock.set(.milliseconds(1500))  // the window closed; its timer has not fired yet
        store.send(.start(3))
        try #require(store.currentState.log == ["1", "2"])

        // The late timer fires now: it must not start "3", held until 2.5 s.
        await clock.waitForSleepers(2)
        clock.wake()
        await Self.yield(until: { store._engine.runningTaskCount <= 1 })
        #expect(store._engine.runningTaskCount == 1)
        #expect(store.currentState.log == ["1", "2"])

        clock.set(.milliseconds(2500))
        clock.wake()
        await Self.yield(until: { store._engine.runningTaskCount == 0 })
        #expect(store.currentState.log == ["1", "2", "3"])
    }
}
