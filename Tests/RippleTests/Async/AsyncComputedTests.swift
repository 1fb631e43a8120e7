import Testing
@testable import Ripple

private struct Failed: Error, Equatable {}

@Suite("AsyncComputed")
struct AsyncComputedTests {
    @Test("nothing starts until the value is read")
    func lazyStart() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        #expect(gate.started.isEmpty)
        #expect(describe(results.value) == "loading -")
        #expect(gate.started == ["a"])
        results.cancel()
    }

    @Test("a read inside a derivation starts it once the graph is released")
    func startFromDerivation() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let loading = Computed { results.value.isLoading }
        #expect(gate.started.isEmpty)
        _ = loading.value
        #expect(gate.started == ["a"])
        results.cancel()
    }

    @Test("a change of what it read cancels the running task and starts a new one")
    func cancelOnChange() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        _ = results.value
        query.value = "ab"
        #expect(gate.started == ["a", "ab"])
        #expect(gate.cancelled == ["a"])
        gate.resume("ab", with: .success("AB"))
        #expect(await eventually { results.value.value == "AB" })
        gate.resume("a", with: .failure(CancellationError()))
        results.cancel()
    }

    @Test("a slow first answer that arrives after a fast second one is never published")
    func staleResultIsDropped() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        query.value = "ab"
        gate.resume("ab", with: .success("AB"))  // the fast second
        #expect(await eventually { results._endedRuns == 1 })
        gate.resume("a", with: .success("A"))  // the slow first, late
        #expect(await eventually { results._endedRuns == 2 })
        #expect(describe(results.value) == "value AB")
        #expect(seen.all.last == "value AB")
        #expect(!seen.all.contains("value A"))
        view.cancel()
        results.cancel()
    }

    @Test("loading and failure keep the last settled value as latest")
    func phasesKeepLatest() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        query.value = "b"
        gate.resume("b", with: .failure(Failed()))
        #expect(await eventually { results._endedRuns == 2 })
        // The reaction that starts it reads `idle` first: the start, a write, is applied after its run.
        #expect(seen.all == ["idle", "loading -", "value A", "loading A", "failure(Failed) A"])
        #expect(results.value.error is Failed)
        view.cancel()
        results.cancel()
    }

    @Test("cancel() stops it: a change starts nothing")
    func cancelStops() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        _ = results.value
        results.cancel()
        #expect(gate.cancelled == ["a"])
        query.value = "b"
        #expect(gate.started == ["a"])
        gate.resume("a", with: .failure(CancellationError()))
    }

    @Test("an optimistic value shows at once and is rolled back when the operation fails")
    func optimisticRollback() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        gate.resume("a", with: .success("A"))
        _ = results.value
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        await #expect(throws: Failed.self) {
            try await results.optimistic("A+") {
                #expect(describe(results.value) == "value A+")
                throw Failed()
            }
        }
        #expect(describe(results.value) == "value A")
        try? await results.optimistic("A2") {}
        #expect(describe(results.value) == "value A2")
        #expect(seen.all == ["value A", "value A+", "value A", "value A2"])
        view.cancel()
        results.cancel()
    }

    @Test("its dependencies can be written from other threads; it ends on the last one")
    func writesFromOtherThreads() async {
        let query = Stored(0)
        let results = AsyncComputed { () async throws -> String in
            let value = query.value
            await Task.yield()
            return "\(value)"
        }
        _ = results.value
        let done = (0..<4).map { _ in DispatchSemaphoreLike() }
        for index in 0..<4 {
            let finished = done[index]
            Thread.detachNewThreadLike {
                for step in 1...50 { query.update { $0 = max($0, index * 100 + step) } }
                finished.signal()
            }
        }
        for finished in done { finished.wait() }
        let last = "\(query.value)"
        #expect(await eventually { results.value.value == last })
        results.cancel()
    }
}

@Suite("AsyncComputed observation")
struct AsyncComputedObservationTests {
    @Test("the running task is cancelled when the last observer goes, and restarts on the next read")
    func cancelWhenUnobserved() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let first = observe { _ = results.value }
        let second = observe { _ = results.value }
        first.cancel()
        #expect(gate.cancelled.isEmpty)
        second.cancel()
        #expect(gate.cancelled == ["a"])
        query.value = "b"
        #expect(gate.started == ["a"])
        _ = results.value
        #expect(gate.started == ["a", "b"])
        results.cancel()
        gate.resume("a", with: .failure(CancellationError()))
        gate.resume("b", with: .failure(CancellationError()))
    }

    @Test("keepsRunningWhenUnobserved keeps the task when the last observer goes")
    func keepsRunning() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed(keepsRunningWhenUnobserved: true) { try await gate.answer(for: query.value) }
        let view = observe { _ = results.value }
        view.cancel()
        #expect(gate.cancelled.isEmpty)
        query.value = "b"
        #expect(gate.started == ["a", "b"])
        results.cancel()
        gate.resume("a", with: .failure(CancellationError()))
        gate.resume("b", with: .failure(CancellationError()))
    }

    @Test("a stop while another thread starts the operation leaves no driver behind")
    func stopDuringStart() {
        let query = Stored(0)
        let entered = ThreadLatch(1)
        let release = ThreadLatch(1)
        let blocks = Cell(true)
        let results = AsyncComputed { () -> Int in
            let value = query.value
            // The first run blocks its thread (before its first suspension, so inside the start
            // of the driver) until the test has stopped the operation from this thread.
            if blocks.value {
                blocks.value = false
                entered.arrive()
                release.wait()
            }
            return value
        }
        let starter = ThreadLatch(1)
        Thread.detachNewThreadLike {
            _ = results.value
            starter.arrive()
        }
        entered.wait()
        // Observed and let go while that start is under way: the operation is stopped.
        observe { _ = results.value }.cancel()
        release.arrive()
        starter.wait()
        let state = results._startState
        #expect(state.isStarted == false)
        #expect(state.hasDriver == false, "a driver runs the operation although it is stopped")
        // The next read starts it again, and it follows its dependency.
        let view = observe { _ = results.value }
        #expect(results._startState == (isStarted: true, hasDriver: true))
        view.cancel()
        results.cancel()
    }
}
