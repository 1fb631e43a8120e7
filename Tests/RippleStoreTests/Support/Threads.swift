import Foundation

// Thread helpers shared by the store tests.

/// Counts threads down to zero; `wait()` returns once all have arrived.
final class ThreadLatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var remaining: Int

    init(_ count: Int) { remaining = count }

    func arrive() {
        condition.lock()
        remaining -= 1
        if remaining == 0 { condition.broadcast() }
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}

/// Runs `body(thread)` on `count` new threads started together (each waits until all exist,
/// so that they overlap) and returns once all of them have finished.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let started = ThreadLatch(count)
    let finished = ThreadLatch(count)
    for index in 0..<count {
        Thread.detachNewThread {
            started.arrive()
            started.wait()
            body(index)
            finished.arrive()
        }
    }
    finished.wait()
}
