import Testing

@testable import Ripple

private struct LoadFailed: Error, Equatable {}
private struct SaveFailed: Error {}
private enum QueryTooShort: Error, Equatable { case tooShort }

/// Async values' readers, optimistic values, batches, lifetimes and threads.
@Suite("AsyncComputed: readers, optimistic values, batches and lifetimes")
struct AsyncComputedReadersTests {
    // MARK: Runs once per change

    @Test("a slow stale answer that is dropped does not run the value's readers again")
    func droppedStaleAnswerRunsNoReader() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        query.value = "ab"
        gate.resume("ab", with: .success("AB"))  // the fast second
        #expect(await eventually { results._endedRuns == 1 })
        let before = seen.all
        gate.resume("a", with: .success("A"))  // the slow first: dropped
        #expect(await eventually { results._endedRuns == 2 })
        #expect(describe(results.value) == "value AB")
        #expect(seen.all == before, "a dropped answer ran the readers again")
        view.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("the CancellationError of a superseded run does not run the value's readers again")
    func supersededCancellationRunsNoReader() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        #expect(seen.all == ["idle", "loading -"])
        query.value = "ab"  // cancels the run for "a", which throws CancellationError: dropped
        #expect(await eventually { results._endedRuns == 1 })
        #expect(seen.count == 3, "readers ran for a dropped cancellation: \(seen.all)")
        gate.resume("ab", with: .success("AB"))
        #expect(await eventually { results._endedRuns == 2 })
        #expect(seen.all.last == "value AB")
        view.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("a reader that runs again for another reason keeps the operation running")
    func rerunningReaderKeepsItRunning() async {
        let query = Stored("a")
        let tick = Stored(0)
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let isLoading = Computed { results.value.isLoading }
        let direct = observe {
            _ = tick.value; _ = results.value
        }
        let through = observe {
            _ = tick.value; _ = isLoading.value
        }
        tick.value = 1
        tick.value = 2
        #expect(gate.started == ["a"])
        #expect(gate.cancelled.isEmpty)
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        #expect(describe(results.value) == "value A")
        direct.cancel()
        through.cancel()
        results.cancel()
        gate.resumeAll()
    }

    // MARK: Optimistic values

    @Test("an optimistic value whose save failed is not kept as latest by a reload started meanwhile")
    func rejectedOptimisticValueIsNotLatest() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let view = observe { _ = results.value }
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        let save = Task { try await results.optimistic("X") { _ = try await gate.answer(for: "save") } }
        #expect(await eventually { gate.started.contains("save") })
        #expect(describe(results.value) == "value X")
        query.value = "b"  // a reload starts while the save runs
        gate.resume("save", with: .failure(SaveFailed()))
        _ = await save.result
        #expect(describe(results.value) == "loading A", "the rejected optimistic value is shown as latest")
        gate.resume("b", with: .failure(LoadFailed()))
        #expect(await eventually { results._endedRuns == 2 })
        #expect(describe(results.value) == "failure(LoadFailed) A", "the rejected optimistic value is kept as latest")
        view.cancel()
        results.cancel()
        gate.resumeAll()
    }

    // MARK: Batches

    @Test("a first read inside a batch starts one run, with the batch's writes")
    func firstReadInsideBatch() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        batch {
            query.value = "b"
            _ = results.value
        }
        #expect(gate.started == ["b"])
        batch {
            query.value = "c"
            query.value = "d"
        }
        #expect(gate.started == ["b", "d"])
        #expect(gate.cancelled == ["b"])
        results.cancel()
        gate.resumeAll()
    }

    @Test("an operation that does not suspend, read inside a batch, shows the batch's value")
    func synchronousOperationInsideBatch() {
        let query = Stored("a")
        let results = AsyncComputed { () async throws -> String in query.value.uppercased() }
        let inside = batch { () -> String in
            query.value = "b"
            return describe(results.value)
        }
        #expect(inside == "value B")
        #expect(describe(results.value) == "value B")
        query.value = "c"
        #expect(describe(results.value) == "value C")
        results.cancel()
    }

    // MARK: Failing derivations

    @Test("a typed error thrown before the first await surfaces, and the value recovers")
    func typedErrorThenRecovery() async {
        let text = Stored("")
        let gate = AsyncGate()
        let query = Computed { () throws(QueryTooShort) -> String in
            guard text.value.count >= 2 else { throw .tooShort }
            return text.value
        }
        let results = AsyncComputed { () async throws -> String in
            let text = try query.get()  // read before the first await: tracked
            return try await gate.answer(for: text)
        }
        let seen = Recorder<String>()
        let view = observe { seen.append(describe(results.value)) }
        #expect(await eventually { results._endedRuns == 1 })
        #expect(results.value.error as? QueryTooShort == .tooShort)
        text.value = "ri"
        #expect(gate.started == ["ri"])
        gate.resume("ri", with: .success("RI"))
        #expect(await eventually { results._endedRuns == 2 })
        #expect(describe(results.value) == "value RI")
        text.value = "r"
        #expect(await eventually { results._endedRuns == 3 })
        #expect(describe(results.value) == "failure(QueryTooShort) RI")
        #expect(gate.started == ["ri"])
        view.cancel()
        results.cancel()
        gate.resumeAll()
    }

    // MARK: Lifetimes

    @Test("the handle, its operation and its task are released when the owner and subscribers go")
    func releasedWithOwnerAndSubscribers() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let released = Counter()
        weak var weakResults: AsyncComputed<String>?
        var view: Subscription?
        do {
            let witness = DeinitAction { released.increment() }
            let results = AsyncComputed { () async throws -> String in
                _ = witness
                return try await gate.answer(for: query.value)
            }
            weakResults = results
            view = observe { _ = results.value }
        }
        #expect(gate.started == ["a"])
        view?.cancel()
        view = nil
        #expect(weakResults == nil)
        #expect(gate.cancelled == ["a"])
        #expect(await eventually { released.value == 1 })
        #expect(!query.hasObserversForTesting, "the driver still reads the query")
        query.value = "b"
        #expect(gate.started == ["a"])
    }

    @Test("a value kept running when unobserved is released with its handle, its task cancelled")
    func keptRunningReleasedWithHandle() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let released = Counter()
        weak var weakResults: AsyncComputed<String>?
        do {
            let witness = DeinitAction { released.increment() }
            let results = AsyncComputed(keepsRunningWhenUnobserved: true) { () async throws -> String in
                _ = witness
                return try await gate.answer(for: query.value)
            }
            weakResults = results
            observe { _ = results.value }.cancel()
            _ = results.value
        }
        #expect(weakResults == nil)
        #expect(gate.cancelled == ["a"])
        #expect(await eventually { released.value == 1 })
        #expect(!query.hasObserversForTesting)
        query.value = "b"
        #expect(gate.started == ["a"])
    }

    @Test("a handle released while its operation ignores cancellation is freed; the operation when it ends")
    func releasedWhileOperationIgnoresCancellation() async {
        let query = Stored("a")
        let gate = AsyncGate()  // ignores cancellation
        let released = Counter()
        weak var weakResults: AsyncComputed<String>?
        do {
            let witness = DeinitAction { released.increment() }
            let results = AsyncComputed { () async throws -> String in
                _ = witness
                return try await gate.answer(for: query.value)
            }
            weakResults = results
            _ = results.value
        }
        #expect(weakResults == nil)
        #expect(!query.hasObserversForTesting)
        gate.resume("a", with: .success("A"))
        #expect(await eventually { released.value == 1 })
    }

    // MARK: Threads

    @Test("readers on many threads start it once; writers on many threads end on the last value")
    func manyThreads() async {
        for iteration in 0..<20 {
            let query = Stored(0)
            let results = describedAfterYield(query)
            runOnThreads(4) { index in
                _ = results.value
                for step in 1...20 { query.update { $0 = max($0, index * 100 + step + iteration) } }
            }
            let last = "\(query.value)"
            #expect(await eventually { results.value.value == last }, "iteration \(iteration)")
            results.cancel()
        }
    }

    @Test("observers coming and going on one thread while another writes: it ends on the last value")
    func stopStartChurnWithWrites() async {
        for iteration in 0..<20 {
            let query = Stored(0)
            let results = describedAfterYield(query)
            runOnThreads(3) { index in
                for step in 1...30 {
                    switch index {
                    case 0: observe { _ = results.value }.cancel()
                    case 1: query.value = step
                    default: _ = results.value
                    }
                }
            }
            let view = observe { _ = results.value }
            #expect(results._startState == (isStarted: true, hasDriver: true), "iteration \(iteration)")
            #expect(await eventually { results.value.value == "30" }, "iteration \(iteration)")
            view.cancel()
            results.cancel()
        }
    }
}

/// An async value that describes `query`'s value after one suspension.
private func describedAfterYield(_ query: Stored<Int>) -> AsyncComputed<String> {
    AsyncComputed { () async throws -> String in
        let value = query.value
        await Task.yield()
        return "\(value)"
    }
}
