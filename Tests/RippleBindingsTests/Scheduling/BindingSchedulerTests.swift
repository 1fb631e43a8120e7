import Dispatch
import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct BindingSchedulerTests {
    @Test("values that arrive before the scheduler runs are coalesced to the newest")
    func coalesces() {
        let manual = ManualScheduler()
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: manual.scheduler) { value in
            seen.mutate { $0.append(value) }
            return true
        }
        let count = Stored(0)
        property.bind(count)
        count.value = 1
        count.value = 2
        #expect(seen.value.isEmpty)
        #expect(manual.pendingCount == 1)
        manual.runAll()
        #expect(seen.value == [2])
        count.value = 3
        manual.runAll()
        #expect(seen.value == [2, 3])
    }

    @Test("an actor scheduler applies values on the actor")
    func actorScheduler() async {
        let renderer = Renderer()
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: .on(renderer)) { value in
            renderer.preconditionIsolated("applied off the actor")
            seen.mutate { $0.append(value) }
            return true
        }
        let count = Stored(1)
        property.bind(count)
        #expect(await eventually(100_000) { seen.value == [1] })
    }

    @Test("immediate applies on the writing thread, inside the write")
    func immediate() {
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: .immediate) { value in
            seen.mutate { $0.append(value) }
            return true
        }
        let count = Stored(1)
        property.bind(count)
        count.value = 2
        #expect(seen.value == [1, 2])
    }
}

actor Renderer {}

/// A task executor that runs jobs concurrently on a dispatch queue.
final class ConcurrentExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "ConcurrentExecutor", attributes: .concurrent)
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

@Suite struct TaskExecutorSchedulerTests {
    @Test("on a concurrent task executor, applies never overlap and the newest value is applied last")
    func concurrentExecutor() async {
        let active = Locked(0)
        let overlapped = Locked(false)
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: .on(ConcurrentExecutor())) { value in
            if active.mutate({
                $0 += 1; return $0
            }) > 1 {
                overlapped.value = true
            }
            seen.mutate { $0.append(value) }
            active.mutate { $0 -= 1 }
            return true
        }
        let count = Stored(0)
        property.bind(count)
        for i in 1...500 { count.value = i }
        #expect(await eventually(1_000_000) { seen.value.last == 500 })
        #expect(!overlapped.value)
        #expect(seen.value == seen.value.sorted())
    }
}
