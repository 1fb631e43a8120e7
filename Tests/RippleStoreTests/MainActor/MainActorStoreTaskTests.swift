import Foundation
import Ripple
import RippleStore
import Testing

private struct TaskState: Equatable {
    var count = 0
}

/// Verge's `store.task { }` and `store.taskDetached { }` on the main-actor store.
@MainActor
@Suite("MainActorStore: task and taskDetached")
struct MainActorStoreTaskTests {
    @Test("store.task runs on the main actor and may commit without await")
    func runsOnTheMainActor() async throws {
        let store = MainActorStore<TaskState, Never>(initialState: TaskState())
        let value = try await store.task {
            store.commit { $0.count += 1 }
            return store.currentState.count
        }.value
        #expect(value == 1)
    }

    @Test("store.taskDetached runs off the main actor")
    func detached() async throws {
        let store = MainActorStore<TaskState, Never>(initialState: TaskState())
        #expect(try await store.taskDetached { Thread.isMainThread }.value == false)
    }

    @Test("the tasks are cancelled when the store is released")
    func cancelledWithTheStore() async {
        var store: MainActorStore<TaskState, Never>? = MainActorStore(initialState: TaskState())
        let started = TDSignal()
        let gate = TDGate()
        let task = store!.task {
            started.signal()
            await gate.pass()
            return Task.isCancelled
        }
        await started.wait()
        store = nil
        #expect(task.isCancelled)
        #expect((try? await task.value) == true)
    }
}
