#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// A batch is atomic for readers on other threads: they see none or all of its writes, and
/// no derived value is computed from a mix. Multi-threaded tests are bounded by iteration
/// counts (readers read at least a fixed number of times, and on until the writer is done).
@Suite("Batch atomicity for readers")
struct BatchAtomicityTests {
    /// Counts threads down to zero; `wait()` returns once all have arrived (any number of
    /// threads may wait).
    final class Latch: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var remaining: Int

        init(_ count: Int) {
            remaining = count
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        deinit {
            pthread_cond_destroy(&condition)
            pthread_mutex_destroy(&mutex)
        }

        func arrive() {
            pthread_mutex_lock(&mutex)
            remaining -= 1
            if remaining == 0 { pthread_cond_broadcast(&condition) }
            pthread_mutex_unlock(&mutex)
        }

        func wait() {
            pthread_mutex_lock(&mutex)
            while remaining > 0 { pthread_cond_wait(&condition, &mutex) }
            pthread_mutex_unlock(&mutex)
        }
    }

    /// A count that threads advance and wait on; also a flag (`isDone`) for "the writer is done".
    final class Progress: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var count = 0
        private var done = false

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        deinit {
            pthread_cond_destroy(&condition)
            pthread_mutex_destroy(&mutex)
        }

        var value: Int {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return count
        }

        var isDone: Bool {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return done
        }

        func advance() {
            pthread_mutex_lock(&mutex)
            count += 1
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }

        func finish() {
            pthread_mutex_lock(&mutex)
            done = true
            pthread_mutex_unlock(&mutex)
        }

        /// Returns once `value` exceeds `target`.
        func wait(beyond target: Int) {
            pthread_mutex_lock(&mutex)
            while count <= target { pthread_cond_wait(&condition, &mutex) }
            pthread_mutex_unlock(&mutex)
        }
    }

    /// Runs `body(thread)` on `count` new threads, started together (each waits until all
    /// exist, so that they overlap), and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let started = Latch(count)
        let finished = Latch(count)
        for thread in 0..<count {
            Thread.detachNewThreadLike {
                started.arrive()
                started.wait()
                body(thread)
                finished.arrive()
            }
        }
        finished.wait()
    }

    @Test("readers on other threads never see half of a batch, and are not blocked by its body")
    func readersSeeAllOrNothing() {
        let a = Stored(0, name: "a")
        let b = Stored(0, name: "b")
        let equal = Computed { a.value == b.value }
        let pair = Computed { [a.value, b.value] }
        let sum = Computed { a.value + b.value }
        let doubledSum = Computed { sum.value * 2 }
        let mixes = Counter()
        let reactionMixes = Counter()
        // Every reader iteration (a full set of checks) advances it.
        let readerProgress = Progress()
        let batches = 2_000
        let minimumReads = 1_000
        // A reaction on each reader thread, re-run by that thread's own writes of `tick`: it
        // reads the pair through one derivation.
        let ticks = (0..<3).map { Stored(0, name: "tick\($0)") }
        let reactions = ticks.map { tick in
            observe {
                _ = tick.value
                let seen = pair.value
                if seen[0] != seen[1] { reactionMixes.increment() }
            }
        }
        Self.onThreads(4) { thread in
            if thread == 0 {
                for iteration in 1...batches {
                    batch {
                        a.value = iteration
                        if iteration % 10 == 0 {
                            // Half-way through the batch, wait (without sleeping) until a
                            // reader has made a whole pass of checks: the readers must
                            // neither see `a` yet nor wait for this batch to end.
                            let now = readerProgress.value
                            readerProgress.wait(beyond: now + 1)
                        }
                        b.value = iteration
                    }
                }
                readerProgress.finish()
                return
            }
            var reads = 0
            while reads < minimumReads || !readerProgress.isDone {
                reads += 1
                if !equal.value { mixes.increment() }
                let seen = pair.value
                if seen[0] != seen[1] { mixes.increment() }
                if doubledSum.value % 4 != 0 { mixes.increment() }
                ticks[thread - 1].value = reads
                readerProgress.advance()
            }
        }
        #expect(mixes.value == 0, "reads that saw part of a batch")
        #expect(reactionMixes.value == 0, "reaction runs that saw part of a batch")
        #expect(a.value == batches && b.value == batches)
        _ = reactions
    }
}
