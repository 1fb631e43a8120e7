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
/// before and after `await`s that resume on the other of two threads; they fail in an
/// optimized build (the AddressSanitizer run of `.ci/run`) if the identity is reused.
@Suite struct ThreadIdentityTests {
    /// A task executor that runs the jobs enqueued on it alternately on two threads of its own,
    /// so that code after an `await` often runs on the other thread than the code before it
    /// (the runtime's pattern of enqueues, and so which awaits change thread, is the same on
    /// every run).
    final class AlternatingExecutor: TaskExecutor, @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var queues: [[UnownedJob]] = [[], []]
        private var next = 0

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
            for index in 0..<2 {
                Thread.detachNewThreadLike { [self] in
                    while true { runNext(on: index) }
                }
            }
        }

        func enqueue(_ job: UnownedJob) {
            pthread_mutex_lock(&mutex)
            queues[next].append(job)
            next ^= 1
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }

        private func runNext(on index: Int) {
            pthread_mutex_lock(&mutex)
            while queues[index].isEmpty { pthread_cond_wait(&condition, &mutex) }
            let job = queues[index].removeFirst()
            pthread_mutex_unlock(&mutex)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Shared by the tests: its two threads live for the rest of the process.
    static let executor = AlternatingExecutor()

    /// The calling thread, found in a way the optimizer cannot reuse.
    @inline(never) @_optimize(none)
    static func actualThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Identities before and after an `await` that resumes on the other thread.
    nonisolated static func identitiesAcrossAnAwait() async -> (before: UInt, after: UInt, actual: UInt) {
        let before = _Lock.currentThread
        await Task.yield()
        let after = _Lock.currentThread
        return (before, after, actualThread())
    }

    @Test("the lock's idea of the calling thread is the thread the code runs on after an await")
    func identityAfterAnAwait() async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        var changes = 0
        for _ in 0..<20 {
            let (before, after, actual) = await withTaskExecutorPreference(Self.executor) {
                await Self.identitiesAcrossAnAwait()
            }
            #expect(after == actual)
            if before != actual { changes += 1 }
        }
        #expect(changes > 0, "some awaits resumed on the other thread")
    }

    /// Reads a stored value, waits, and reads it again, on the other thread.
    nonisolated static func readsAcrossAnAwait(_ value: Stored<Int>) async -> (Int, Int, Bool) {
        let first = value.value
        await Task.yield()
        let second = value.value
        // The read released the lock: this thread holds it no more.
        return (first, second, _graph.lock.isHeldForTesting)
    }

    @Test("reads before and after an await that changes thread see the value and leave the lock released")
    func readsAcrossAnAwait() async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let value = Stored(1)
        for round in 0..<10 {
            value.value = round
            let (first, second, stillHeld) = await withTaskExecutorPreference(Self.executor) {
                await Self.readsAcrossAnAwait(value)
            }
            #expect(first == round)
            #expect(second == round)
            #expect(!stillHeld)
        }
    }
}
