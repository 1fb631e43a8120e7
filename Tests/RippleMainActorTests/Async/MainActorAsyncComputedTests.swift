@testable import Ripple
import Testing

// Compiled with main-actor default isolation (see Package.swift), as an Xcode 26 app target:
// the service, the tests and the operations are on the main actor without saying so.

@Suite("MainActorAsyncComputed under main-actor default isolation")
struct MainActorAsyncComputedTests {
    @Test("Task.immediate runs a main-actor operation started on the main actor at once, up to its first await")
    func taskImmediateStartsSynchronously() async {
        let log = Log()
        let task = Task.immediate { @MainActor in
            log.append("operation starts")
            await Task.yield()
            log.append("operation resumes")
        }
        log.append("caller goes on")
        #expect(log.entries == ["operation starts", "caller goes on"])
        await task.value
        #expect(log.entries == ["operation starts", "caller goes on", "operation resumes"])
    }

    @Test("nothing starts until the value is read; the first read starts the operation at once")
    func lazyStart() {
        let query = Stored("a")
        let service = SearchService()
        let results = MainActorAsyncComputed { try await service.search(query.value) }
        #expect(service.started.isEmpty)
        #expect(describe(results.value) == "loading -")
        #expect(service.started == ["a"])
        results.cancel()
    }

    @Test("what the operation reads before its first await is tracked: a change on the main actor restarts it at once")
    func readsBeforeTheFirstAwaitAreTracked() async {
        let query = Stored("a")
        let service = SearchService()
        let results = MainActorAsyncComputed { try await service.search(query.value) }
        _ = results.value
        query.value = "b"
        #expect(service.started == ["a", "b"])
        query.value = "c"
        #expect(service.started == ["a", "b", "c"])
        results.cancel()
        for query in ["a", "b", "c"] { service.answer(query, with: query.uppercased()) }
        #expect(await eventually { service.returned.count == 3 })
    }

    @Test("a slow answer to an old query never overwrites the answer to a newer one")
    func staleResultIsDropped() async {
        let query = Stored("a")
        let service = SearchService()
        let results = MainActorAsyncComputed { try await service.search(query.value) }
        let seen = Log()
        let view = observeOnMainActor { seen.append(describe(results.value)) }
        query.value = "b"
        service.answer("b", with: "B")
        #expect(await eventually { results.value.value == "B" })
        // The first request answers last: its run ends, and its answer is dropped.
        service.answer("a", with: "A")
        #expect(await eventually { service.returned == ["b", "a"] })
        #expect(describe(results.value) == "value B")
        #expect(!seen.entries.contains("value A"))
        #expect(seen.entries.last == "value B")
        view.cancel()
    }

    @Test("a write on another thread restarts the operation on the main actor, where its reads are tracked again")
    func writeFromAnotherThread() async {
        let query = Stored("a")
        let service = SearchService()
        let results = MainActorAsyncComputed { try await service.search(query.value) }
        let view = observeOnMainActor { _ = results.value }
        #expect(service.started == ["a"])
        await Task.detached { query.value = "b" }.value
        #expect(await eventually { service.started == ["a", "b"] })
        // The run started on the main actor tracked `query` again: this write restarts it at once.
        query.value = "c"
        #expect(service.started == ["a", "b", "c"])
        service.answer("c", with: "C")
        #expect(await eventually { results.value.value == "C" })
        view.cancel()
        for query in ["a", "b"] { service.answer(query, with: query) }
        #expect(await eventually { service.returned.count == 3 })
    }

    @Test("an optimistic value on the main actor is shown at once and rolled back when the save fails")
    func optimisticRollsBack() async {
        struct SaveFailed: Error {}
        let service = SearchService()
        let results = MainActorAsyncComputed { try await service.search("a") }
        _ = results.value
        service.answer("a", with: "A")
        #expect(await eventually { results.value.value == "A" })
        let shown = Log()
        await #expect(throws: SaveFailed.self) {
            try await results.optimistic("draft") {
                shown.append(describe(results.value))
                throw SaveFailed()
            }
        }
        #expect(shown.entries == ["value draft"])
        #expect(describe(results.value) == "value A")
    }
}
