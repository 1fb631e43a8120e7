import Testing

@testable import Ripple

private struct SaveFailed: Error {}

/// An async value used from reactions: its own driver's (the operation reading itself) and
/// the user's (an optimistic update started by one), where writes are queued until the round
/// ends.
@Suite("AsyncComputed in reactions")
struct AsyncComputedInReactionsTests {
    @Test("an operation that reads its own latest value before its first await runs once")
    func readsItsOwnValue() {
        let runs = Recorder<String?>()
        let gate = AsyncGate()
        nonisolated(unsafe) var itself: AsyncComputed<String>? = nil
        let results = AsyncComputed { () async throws -> String in
            // The page loaded so far, to load the next (bounded: a loop would stop here).
            let previous = runs.count < 20 ? itself?.latest : nil
            runs.append(previous)
            return try await gate.answer(for: previous ?? "first")
        }
        itself = results
        _ = results.value
        #expect(runs.count == 1)
        gate.resume("first", with: .success("page 1"))
        #expect(gate.started == ["first"])
        results.cancel()
        gate.resumeAll()
    }

    @Test("its own reads are untracked; what it reads besides stays tracked")
    func ownReadsUntracked() async {
        let query = Stored("a")
        let gate = AsyncGate()
        nonisolated(unsafe) var itself: AsyncComputed<String>? = nil
        let results = AsyncComputed { () async throws -> String in
            let previous = itself?.latest ?? "-"
            return try await gate.answer(for: "\(query.value) after \(previous)")
        }
        itself = results
        let view = observe { _ = results.value }
        gate.resume("a after -", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        query.value = "b"
        #expect(gate.started == ["a after -", "b after A"])
        view.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("an optimistic value shown from a reaction is rolled back when its operation throws")
    func optimisticFromReaction() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        _ = results.value
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        let saveRequested = Stored(false)
        let saves = Recorder<Task<Void, any Error>>()
        let saver = observe {
            guard saveRequested.value else { return }
            saves.append(
                Task.immediate { try await results.optimistic("X") { _ = try await gate.answer(for: "save") } })
        }
        saveRequested.value = true
        #expect(describe(results.value) == "value X")
        gate.resume("save", with: .failure(SaveFailed()))
        _ = await saves.all.first?.result
        #expect(describe(results.value) == "value A")
        saver.cancel()
        results.cancel()
        gate.resumeAll()
    }

    @Test("a rollback from a reaction leaves a value that replaced the optimistic one")
    func rollbackAfterNewerValue() async {
        let query = Stored("a")
        let gate = AsyncGate()
        let results = AsyncComputed { try await gate.answer(for: query.value) }
        _ = results.value
        gate.resume("a", with: .success("A"))
        #expect(await eventually { results._endedRuns == 1 })
        let step = Stored(0)
        let saves = Recorder<Task<Void, any Error>>()
        let saver = observe {
            switch step.value {
            case 1:
                saves.append(
                    Task.immediate { try await results.optimistic("X") { _ = try await gate.answer(for: "save") } })
            case 2:
                saves.append(Task.immediate { try await results.optimistic("Y") {} })
            default: break
            }
        }
        step.value = 1
        step.value = 2
        #expect(describe(results.value) == "value Y")
        gate.resume("save", with: .failure(SaveFailed()))
        for save in saves.all { _ = await save.result }
        #expect(describe(results.value) == "value Y")
        saver.cancel()
        results.cancel()
        gate.resumeAll()
    }
}
