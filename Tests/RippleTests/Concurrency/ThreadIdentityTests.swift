#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// The lock recognises a re-entrant acquisition by comparing its owner with the calling
/// thread's identity. `pthread_self()` is a constant function to the optimizer, which may
/// compute it once in an `async` function and reuse it after an `await` that resumed on another
/// thread (LLVM issue 47177): a read inlined there would take the lock as re-entrant while the
/// thread it started on holds it. That is how one CI run once saw two threads append to the
/// same computed value's sources. These tests run code that reads the identity, and the graph,
/// before and after `await`s that always resume on another thread; they fail in an
/// optimized build (the AddressSanitizer run of `.ci/run`) if the identity is reused.
@Suite struct ThreadIdentityTests {
    /// A task executor that runs each job on a new thread, which then waits for the rest of the
    /// process (so that no later thread can reuse its identity): code after an `await` always
    /// runs on another thread than the code before it.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    final class NewThreadExecutor: TaskExecutor, @unchecked Sendable {
        /// Jobs that returned: ran to their end, or to the task's next suspension.
        let jobsReturned = ThreadProgress()

        func enqueue(_ job: UnownedJob) {
            let executor = asUnownedTaskExecutor()
            Thread.detachNewThreadLike {
                job.runSynchronously(on: executor)
                self.jobsReturned.advance()
                DispatchSemaphoreLike().wait()
            }
        }
    }

    /// The calling thread, found in a way the optimizer cannot reuse.
    @inline(never) @_optimize(none)
    static func actualThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Suspends until another thread resumes the task, once the task has suspended (the job
    /// running it on `executor` returned), so that it goes on through `executor`, on a new
    /// thread. (`Task.yield()`, and a continuation resumed at once, let the task go on where it
    /// was: under ThreadSanitizer, more often than not.)
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    nonisolated static func awaitResumedElsewhere(_ executor: NewThreadExecutor) async {
        let returned = executor.jobsReturned.value
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThreadLike {
                executor.jobsReturned.wait(beyond: returned)
                continuation.resume()
            }
        }
    }

    /// Identities before and after an `await` that resumes on another thread.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    nonisolated static func identitiesAcrossAnAwait(_ executor: NewThreadExecutor) async -> (
        before: UInt, after: UInt, actual: UInt
    ) {
        let before = _Lock.currentThread
        await awaitResumedElsewhere(executor)
        let after = _Lock.currentThread
        return (before, after, actualThread())
    }

    @Test("the lock's idea of the calling thread is the thread the code runs on after an await")
    func identityAfterAnAwait() async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let executor = NewThreadExecutor()
        var changes = 0
        for _ in 0..<5 {
            let (before, after, actual) = await withTaskExecutorPreference(executor) {
                await Self.identitiesAcrossAnAwait(executor)
            }
            #expect(after == actual)
            if before != actual { changes += 1 }
        }
        #expect(changes == 5, "every await resumed on another thread")
    }

    /// Reads a stored value, waits, and reads it again, on the other thread.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    nonisolated static func readsAcrossAnAwait(_ value: Stored<Int>, _ executor: NewThreadExecutor) async -> (
        Int, Int, Bool
    ) {
        let first = value.value
        await awaitResumedElsewhere(executor)
        let second = value.value
        // The read released the lock: this thread holds it no more.
        return (first, second, _graph.lock.isHeldForTesting)
    }

    @Test("reads before and after an await that changes thread see the value and leave the lock released")
    func readsAcrossAnAwait() async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let executor = NewThreadExecutor()
        let value = Stored(1)
        for round in 0..<5 {
            value.value = round
            let (first, second, stillHeld) = await withTaskExecutorPreference(executor) {
                await Self.readsAcrossAnAwait(value, executor)
            }
            #expect(first == round)
            #expect(second == round)
            #expect(!stillHeld)
        }
    }
}
