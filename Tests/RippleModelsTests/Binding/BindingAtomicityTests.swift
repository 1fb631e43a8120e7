import Dispatch
import Foundation
import Testing
import Ripple
@testable import RippleModels

/// Read-modify-writes through bindings and model properties lose nothing when several threads
/// write at once (issue: a binding's `+= 1` from 8 threads × 20 000 ended at 45 341).
@Suite("Atomic read-modify-writes through bindings and models")
struct BindingAtomicityTests {
    typealias NSLockLike = NSLock
    static let threads = 8
    static let iterations = 1_000
    static var expected: Int { threads * iterations }

    final class Counter: SendableModel, @unchecked Sendable {
        @Observed var count = 0
        @Observed var frame = Frame()
        let didSetRuns = Log<Int>()
        @Observed var observedCount = 0 {
            didSet { didSetRuns.append(observedCount) }
        }
    }

    @Test("a model property's += from many threads")
    func modelProperty() {
        let model = Counter()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations { model.count += 1 }
        }
        #expect(model.count == Self.expected)
    }

    /// Storage with its own atomic read-modify-write (a lock here, a store's commit in
    /// RippleStore): `init(get:update:)` sends every write and update through it.
    final class LockedInt: @unchecked Sendable {
        private let lock = NSLockLike()
        private var storage = 0
        let updates = Log<Int>()
        var value: Int { lock.withLock { storage } }
        func update(_ transform: (inout Int) -> Void) {
            let result = lock.withLock { () -> Int in
                transform(&storage)
                return storage
            }
            updates.append(result)
        }
    }

    @Test("a binding made with get:update: from many threads")
    func getUpdateBinding() {
        let box = LockedInt()
        let binding = ValueBinding(get: { box.value }, update: { transform in box.update(transform) })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<Self.iterations {
                binding.update { $0 += 1 }
                if thread.isMultiple(of: 2) { binding.value = 0 }
            }
        }
        // Every `update` and every write went through the storage's own update, once.
        #expect(box.updates.count == Self.expected + Self.expected / 2)
    }

    @Test("a binding to a Stored: += and update from many threads")
    func storedBinding() {
        let stored = Stored(0)
        let binding = ValueBinding(stored)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<Self.iterations {
                if thread.isMultiple(of: 2) { binding.value += 1 } else { binding.update { $0 += 1 } }
            }
        }
        #expect(stored.value == Self.expected)
    }

    @Test("a model binding and its key-path projection: += and update from many threads")
    func modelBindings() {
        let model = Counter()
        let count = model.bindings.count
        let width = model.bindings.frame.size.width
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<Self.iterations {
                if thread.isMultiple(of: 2) {
                    count.value += 1
                    width.wrappedValue += 1
                } else {
                    count.update { $0 += 1 }
                    width.update { $0 += 1 }
                }
            }
        }
        #expect(model.count == Self.expected)
        #expect(model.frame.size.width == Double(Self.expected))
    }

    @Test("a binding to a property with didSet: updates from many threads, didSet runs for each")
    func didSetProperty() {
        let model = Counter()
        let count = model.bindings.observedCount
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations { count.update { $0 += 1 } }
        }
        #expect(model.observedCount == Self.expected)
        // didSet also runs for a write that another thread overtook (and that wrote nothing):
        // Swift calls it after the setter whatever the setter did.
        #expect(model.didSetRuns.count >= Self.expected)
    }

    @Test("a binding made from a getter and a setter over a Stored")
    func getterSetterBinding() {
        let stored = Stored(0)
        let binding = ValueBinding(get: { stored.value }, set: { stored.value = $0 })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<Self.iterations {
                if thread.isMultiple(of: 2) { binding.value += 1 } else { binding.update { $0 += 1 } }
            }
        }
        #expect(stored.value == Self.expected)
    }
}
