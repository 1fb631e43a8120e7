import Testing
@testable import Ripple

/// A stored value's replaced value is released with the graph's lock released, after the
/// write's reactions: its deinitializer is user code and may block, read or write.
@Suite("Releasing replaced values")
struct ReplacedValueTests {
    /// Records, when it is freed, whether the graph was held, and runs `onDeinit`.
    final class Payload: @unchecked Sendable {
        let id: Int
        let onDeinit: @Sendable () -> Void
        init(_ id: Int, onDeinit: @escaping @Sendable () -> Void = {}) {
            self.id = id
            self.onDeinit = onDeinit
        }
        deinit { onDeinit() }
    }

    @Test("the replaced value is freed with the lock released")
    func releasedUnlocked() {
        let heldAtDeinit = Cell<Bool?>(nil)
        let stored = Stored(Payload(1) { heldAtDeinit.value = _graph.lock.isHeldForTesting }, equals: nil)
        stored.value = Payload(2)
        #expect(heldAtDeinit.value == false)
    }

    @Test("a replaced value freed inside a batch is freed unlocked too")
    func releasedUnlockedInBatch() {
        let heldAtDeinit = Cell<Bool?>(nil)
        let stored = Stored(Payload(1), equals: nil)
        batch {
            // The batch keeps Payload 1 as its original; Payload 2 is replaced inside it.
            stored.value = Payload(2) { heldAtDeinit.value = _graph.lock.isHeldForTesting }
            stored.value = Payload(3)
        }
        #expect(heldAtDeinit.value == false)
    }

    @Test("a computed value's replaced value is freed with the lock released")
    func computedReleasedUnlocked() {
        let heldAtDeinit = Cell<Bool?>(nil)
        let source = Stored(1)
        let derived = Computed(equals: nil) { () -> Payload in
            let id = source.value
            return Payload(id) { if id == 1 { heldAtDeinit.value = _graph.lock.isHeldForTesting } }
        }
        let reaction = observe { _ = derived.value.id }
        source.value = 2  // re-evaluates: Payload 1 is replaced
        #expect(heldAtDeinit.value == false)
        reaction.cancel()
    }

    @Test("a deinitializer that writes does not run reactions inside the outer write")
    func deinitWrites() {
        let other = Stored(0)
        let stored = Stored(Payload(1) { other.value += 1 }, equals: nil)
        let derived = Computed { stored.value.id * 10 }
        let seen = Cell<[String]>([])
        let reaction = observe {
            let payload = stored.value
            seen.value.append("\(payload.id) \(derived.value) \(other.value)")
        }
        stored.value = Payload(2)
        // One run for the write, then one for the deinitializer's write, each consistent.
        #expect(seen.value == ["1 10 0", "2 20 0", "2 20 1"])
        reaction.cancel()
    }

    @Test("a deinitializer that waits for another thread reading the graph does not deadlock")
    func deinitWaitsForReader() {
        let other = Stored(7)
        let read = Cell<Int>(0)
        let stored = Stored(
            Payload(1) {
                // Another thread reads the graph while this deinitializer waits for it.
                runOnThreads(1) { _ in read.value = other.value }
            }, equals: nil)
        stored.value = Payload(2)
        #expect(read.value == 7)
    }
}
