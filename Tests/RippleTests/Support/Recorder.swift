@testable import Ripple

/// A thread-safe log that reactions and handlers append to.
final class Recorder<Element>: @unchecked Sendable {
    private let lock = _Lock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var all: [Element] {
        lock.withLock { storage }
    }

    var count: Int {
        lock.withLock { storage.count }
    }

    func removeAll() {
        lock.withLock { storage.removeAll() }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = _Lock()
    private var storage = 0

    func increment() {
        lock.withLock { storage += 1 }
    }

    var value: Int {
        lock.withLock { storage }
    }

    func reset() {
        lock.withLock { storage = 0 }
    }
}

/// A mutable cell shared with @Sendable closures in single-threaded tests.
final class Cell<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A deterministic generator (SplitMix64) so randomized tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An object that runs `action` when it is deinitialized: to check what user code run by a
/// release may do (make a batch, write) at the moment Ripple releases it.
final class DeinitAction: Sendable {
    let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
    }

    deinit { action() }
}

/// Runs `body` on another thread and waits for it. Called inside a batch, it also proves that
/// the batch's body holds nothing another thread's read would wait for.
func onOtherThread<R: Sendable>(_ body: @escaping @Sendable () -> R) -> R {
    let result = Cell<R?>(nil)
    runOnThreads(1) { _ in result.value = body() }
    return result.value!
}
