import Testing

@testable import Ripple

/// What a stop leaves behind: an operation stopped because nothing observes it any longer
/// starts again on the next read "from the phase it had", whatever the stopped run does next.
@Suite("AsyncComputed stops")
struct AsyncComputedStopTests {
    @Test("the cancellation a stop causes is not published as the operation's failure")
    func stopIsNotAFailure() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let view = observe { _ = results.value }
        view.cancel()
        #expect(gate.cancelled == ["a"])
        #expect(await eventually { results._endedRuns == 1 })
        #expect(describe(results.state.value.phase) == "loading -")
        let seen = Recorder<String>()
        let again = observe { seen.append(describe(results.value)) }
        #expect(seen.all.first == "loading -")
        again.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("a stop during a reload keeps the latest value, with no failure")
    func stopDuringReload() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let view = observe { _ = results.value }
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        query.value = "b"
        view.cancel()
        #expect(await eventually { results._endedRuns == 2 })
        #expect(describe(results.state.value.phase) == "loading A")
        results.cancel()
        gate.resumeAll()
    }

    @Test("an answer a stopped run gives anyway is not shown as settled")
    func answerAfterStopIsDropped() async {
        let query = Stored("a")
        let gate = AsyncGate()  // ignores cancellation
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let view = observe { _ = results.value }
        view.cancel()
        query.value = "b"
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        let seen = Recorder<String>()
        let again = observe { seen.append(describe(results.value)) }
        #expect(seen.all.first == "loading -")
        #expect(gate.started == ["a", "b"])
        again.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("it stops when the last reaction reading it through a computed value goes")
    func stopThroughComputed() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let isLoading = Computed { results.value.isLoading }
        let view = observe { _ = isLoading.value }
        #expect(gate.started == ["a"])
        view.cancel()
        #expect(gate.cancelled == ["a"])
        query.value = "b"
        #expect(gate.started == ["a"], "a change restarted an operation nothing observes")
        results.cancel()
        gate.resumeAll()
    }

    @Test("it stops when a chain of computed values reading it loses its last reaction")
    func stopThroughChain() {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        let isLoading = Computed { results.value.isLoading }
        let label = Computed { isLoading.value ? "…" : "done" }
        let direct = observe { _ = label.value }
        let other = observe { _ = isLoading.value }
        direct.cancel()
        #expect(gate.cancelled.isEmpty, "another reaction still reads it")
        other.cancel()
        #expect(gate.cancelled == ["a"])
        results.cancel()
        gate.resumeAll()
    }

    @MainActor
    @Test("main actor: the cancellation a stop causes is not published as a failure")
    func mainActorStopIsNotAFailure() async {
        let query = Stored("a")
        let gate = AsyncGate(cooperative: true)
        let results = MainActorAsyncComputed { try await gate.answer(for: query.value) }
        let view = observeOnMainActor { _ = results.value }
        #expect(await eventually { gate.started == ["a"] })
        view.cancel()
        #expect(await eventually { results.base._endedRuns == 1 })
        #expect(describe(results.base.state.value.phase) == "loading -")
        var seen: [String] = []
        let again = observeOnMainActor { seen.append(describe(results.value)) }
        #expect(seen.first == "loading -")
        again.cancel()
        results.cancel()
        gate.resumeAll()
    }
}
