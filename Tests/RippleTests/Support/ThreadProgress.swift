#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Ripple

// Helpers for multi-threaded tests bounded by iteration counts: threads started together, and a
// progress count that one thread can wait on (without sleeping) until others have moved on.

/// Counts threads down to zero; `wait()` returns once all have arrived (any number of
/// threads may wait).
final class ThreadLatch: @unchecked Sendable {
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
final class ThreadProgress: @unchecked Sendable {
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
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let started = ThreadLatch(count)
    let finished = ThreadLatch(count)
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

/// A reaction's run paused on another thread while this one changes the graph: `run(by:while:)`
/// writes `trigger` there (its reaction runs there, and calls `pause()` where the test wants
/// the change), applies `change` here once the run is paused, lets the run go on, and returns
/// once that thread's write (and every run it delivered) is done.
final class PausedRun: Sendable {
    private let reached = ThreadLatch(1)
    private let resumed = ThreadLatch(1)

    /// Called by the reaction: waits, the first time only, until the change has been applied.
    func pause() {
        reached.arrive()
        resumed.wait()
    }

    func run(by trigger: Stored<Int>, while change: () -> Void) {
        run(starting: { trigger.value = 1 }, while: change)
    }

    /// `run(by:while:)` with the other thread's change given as `start`.
    func run(starting start: @escaping @Sendable () -> Void, while change: () -> Void) {
        let finished = ThreadLatch(1)
        Thread.detachNewThreadLike {
            start()
            finished.arrive()
        }
        reached.wait()
        change()
        resumed.arrive()
        finished.wait()
    }
}
