#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// Read-modify-writes from many threads lose nothing (issue: 8 threads × 20 000 increments
/// ended at 45 341 instead of 160 000; appends kept 3 702 of 16 000 elements).
@Suite("Atomic read-modify-writes")
struct ReadModifyWriteTests {
    static let threads = 8
    static let iterations = 2_000

    @Test("compound assignments from many threads are atomic")
    func compoundAssignment() {
        let count = Stored(0)
        runOnThreads(Self.threads) { _ in
            for _ in 0..<Self.iterations { count.value += 1 }
        }
        #expect(count.value == Self.threads * Self.iterations)
    }

    @Test("update from many threads is atomic")
    func update() {
        let count = Stored(0)
        runOnThreads(Self.threads) { _ in
            for _ in 0..<Self.iterations { count.update { $0 += 1 } }
        }
        #expect(count.value == Self.threads * Self.iterations)
    }

    @Test("appends in place from many threads keep every element")
    func appends() {
        let items = Stored<[Int]>([])
        runOnThreads(Self.threads) { thread in
            for index in 0..<500 {
                if index.isMultiple(of: 2) {
                    items.value.append(thread * 1_000 + index)
                } else {
                    items.update { $0.append(thread * 1_000 + index) }
                }
            }
        }
        #expect(items.value.count == Self.threads * 500)
        #expect(Set(items.value).count == Self.threads * 500)
    }

    @Test("plain writes from other threads wait for a compound assignment, and are not lost")
    func mixedWriters() {
        // Half the threads add 1 with `+=`, the other half add 1_000_000 with `update`: any lost
        // write shows in one of the two digits groups.
        let count = Stored(0)
        runOnThreads(Self.threads) { thread in
            for _ in 0..<Self.iterations {
                if thread.isMultiple(of: 2) { count.value += 1 } else { count.update { $0 += 1_000_000 } }
            }
        }
        let half = Self.threads / 2 * Self.iterations
        #expect(count.value == half + half * 1_000_000)
    }

    @Test("update's transform runs outside the graph's lock, and may read other values")
    func transformIsUnlocked() {
        let other = Stored(5)
        let count = Stored(0)
        var heldDuringTransform = true
        count.update { value in
            heldDuringTransform = _graph.lock.isHeldForTesting
            value += other.value
        }
        #expect(!heldDuringTransform)
        #expect(count.value == 5)
    }

    @Test("inside a reaction, two updates both apply, in order")
    func updatesInsideReaction() {
        let trigger = Stored(0)
        let count = Stored(0)
        let reaction = observe {
            guard trigger.value > 0 else { return }
            count.update { $0 += 1 }
            count.update { $0 *= 10 }
        }
        trigger.value = 1
        #expect(count.value == 10)
        reaction.cancel()
    }
}

/// Read-modify-writes inside batches: the batch's writes are applied only when it ends, so its
/// read-modify-writes hold their values until then.
@Suite("Atomic read-modify-writes inside batches")
struct BatchedReadModifyWriteTests {
    @Test("compound assignments and updates inside batches, from many threads, lose nothing")
    func batchedIncrements() {
        let count = Stored(0)
        runOnThreads(8) { thread in
            for _ in 0..<500 {
                batch {
                    if thread.isMultiple(of: 2) { count.value += 1 } else { count.update { $0 += 1 } }
                    // The batch goes on after its read-modify-write: other writers must wait.
                    sched_yield()
                }
            }
        }
        #expect(count.value == 8 * 500)
    }

    @Test("transfers between two values in batches keep the total and lose nothing")
    func transfers() {
        let a = Stored(10_000)
        let b = Stored(0)
        let total = Computed { a.value + b.value }
        let wrongTotals = Cell(0)
        runOnThreads(4) { thread in
            for _ in 0..<400 {
                if thread == 3 {
                    if total.value != 10_000 { wrongTotals.value += 1 }
                    continue
                }
                // Always a before b: the same order on every thread.
                batch {
                    a.value -= 1
                    sched_yield()
                    b.update { $0 += 1 }
                }
            }
        }
        #expect(a.value == 10_000 - 3 * 400)
        #expect(b.value == 3 * 400)
        #expect(wrongTotals.value == 0)
    }

    @Test("a plain write and a batched update from other threads do not overtake each other")
    func mixedWithPlainWriters() {
        let count = Stored(0)
        runOnThreads(4) { thread in
            for _ in 0..<500 {
                switch thread {
                case 0:
                    batch {
                        count.value += 1; sched_yield()
                    }
                case 1: count.value += 1_000
                case 2: count.update { $0 += 1_000_000 }
                default:
                    batch {
                        count.update { $0 += 1_000_000_000 }; sched_yield()
                    }
                }
            }
        }
        #expect(count.value == 500 * 1_001_001_001)
    }

    @Test("two batches that read-modify-write two values in opposite orders stop with a message, not a hang")
    func oppositeOrders() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let a = Stored(0, name: "a")
                let b = Stored(0, name: "b")
                let aHeld = DispatchSemaphoreLike()
                let bHeld = DispatchSemaphoreLike()
                runOnThreads(2) { thread in
                    if thread == 0 {
                        batch {
                            a.value += 1
                            aHeld.signal()
                            bHeld.wait()
                            b.value += 1
                        }
                    } else {
                        batch {
                            b.value += 1
                            bHeld.signal()
                            aHeld.wait()
                            a.value += 1
                        }
                    }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("deadlock between read-modify-writes"))
    }
}
