import Foundation
import RippleStore
import Testing

/// Verge's `store.task { }` (inherits the caller's actor) and `store.taskDetached { }`: tasks
/// without a key, owned by the store, cancelled when it is released.
@Suite("Async: store.task and store.taskDetached")
struct StoreUnkeyedTaskTests {
    @MainActor private static var mainActorCounter = 0

    @MainActor private static func bumpOnMainActor() -> Int {
        mainActorCounter += 1
        return mainActorCounter
    }

    @Test("store.task from the main actor runs on the main actor and returns its value")
    @MainActor func inheritsTheMainActor() async throws {
        let store = TDStore(initialState: TDState())
        let task = store.task {
            // Compiles only if the closure is isolated to the main actor (no `await`).
            MainActor.assertIsolated()
            return Self.bumpOnMainActor()
        }
        let value = try await task.value
        #expect(value == Self.mainActorCounter)
    }

    private actor Counter {
        var count = 0
        func start(on store: TDStore) -> Task<Int, any Error> {
            store.task {
                // Compiles only if the closure is isolated to this actor.
                self.count += 1
                return self.count
            }
        }
    }

    @Test("store.task from an actor runs on that actor")
    func inheritsAnActor() async throws {
        let store = TDStore(initialState: TDState())
        let counter = Counter()
        let value = try await counter.start(on: store).value
        #expect(value == 1)
        #expect(await counter.count == 1)
    }

    @Test("store.task rethrows what the operation throws")
    func throwsThrough() async {
        struct Failure: Error {}
        let store = TDStore(initialState: TDState())
        let task = store.task { () async throws -> Int in throw Failure() }
        await #expect(throws: Failure.self) { try await task.value }
    }

    @Test("store.taskDetached does not run on the caller's actor")
    @MainActor func detachedLeavesTheActor() async throws {
        let store = TDStore(initialState: TDState())
        let onMain = try await store.taskDetached { Thread.isMainThread }.value
        #expect(!onMain)
    }

    @Test("tasks without a key are cancelled when the store is released")
    func cancelledWithTheStore() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let attached = store!.task {
            started.signal()
            await gate.pass()
            return Task.isCancelled
        }
        let detached = store!.taskDetached {
            started.signal()
            await gate.pass()
            return Task.isCancelled
        }
        await started.wait()
        await started.wait()
        store = nil
        #expect(attached.isCancelled)
        #expect(detached.isCancelled)
        #expect((try? await attached.value) == true)
        #expect((try? await detached.value) == true)
    }

    @Test("a task that ends on its own is not cancelled")
    func endsOnItsOwn() async {
        let store = TDStore(initialState: TDState())
        let task = store.task { 1 }
        #expect((try? await task.value) == 1)
        #expect(!task.isCancelled)
    }

    @Test("many tasks end and are forgotten: the store does not keep finished ones")
    func finishedAreForgotten() async throws {
        let store = TDStore(initialState: TDState())
        var total = 0
        for i in 0..<50 {
            total += try await store.task { i }.value
            total += try await store.taskDetached { i }.value
        }
        #expect(total == 2 * (0..<50).reduce(0, +))
        #expect(store._runningTaskCountForTesting == 0)
    }
}
