import Testing
@testable import Ripple

/// What a batch's own thread reads inside it (its own writes, at once) and what every other
/// thread reads meanwhile (none of them, until the outermost batch ends).
@Suite("Reads inside a batch")
struct BatchViewTests {
    @Test("the batching thread reads its writes at once; another thread reads none until the batch ends")
    func readYourWritesOthersSeeNothing() {
        let a = Stored(1, name: "a")
        let b = Stored(2, name: "b")
        let sum = Computed { a.value + b.value }
        let label = Computed(a, b) { "\($0)-\($1)" }
        let doubledSum = Computed { sum.value * 2 }
        let untouched = Computed { b.value * 10 }
        let live = observe {
            _ = doubledSum.value; _ = label.value
        }
        batch {
            a.value = 5
            #expect(a.value == 5)
            #expect(sum.value == 7)
            #expect(label.value == "5-2", "a computed value with explicit inputs")
            #expect(doubledSum.value == 14)
            #expect(untouched.value == 20)
            #expect(untracked { sum.value } == 7)
            let seen = onOtherThread { [a.value, sum.value, doubledSum.value] }
            #expect(seen == [1, 3, 6], "another thread reads the committed values")
            a.update { $0 += 1 }
            #expect(a.value == 6, "update reads the batch's value")
            #expect(a.writeCount == 2)
            #expect(onOtherThread { a.writeCount } == 0)
        }
        #expect(onOtherThread { [a.value, sum.value, doubledSum.value] } == [6, 8, 16])
        #expect(a.writeCount == 2)
        #expect(label.value == "6-2")
        live.cancel()
    }

    @Test("inside a batch, a computed value that switches branches reads the batch's values on the new branch")
    func dynamicDependencyInBatchView() {
        let useFirst = Stored(false)
        let first = Stored(1)
        let second = Stored(2)
        let chosen = Computed { useFirst.value ? first.value : second.value }
        #expect(chosen.value == 2)
        batch {
            first.value = 10
            #expect(chosen.value == 2, "not on the branch it reads")
            useFirst.value = true
            #expect(chosen.value == 10, "a source its shared evaluation never read")
            first.value = 11
            #expect(chosen.value == 11)
            #expect(onOtherThread { chosen.value } == 2)
        }
        #expect(chosen.value == 11)
    }

    @Test("a chain of 10,000 computed values is read in a batch's view without deep recursion")
    func longChainInBatchView() async {
        // On a thread with a small stack (Swift concurrency's pool), as the chain tests of the graph.
        let result = await Task.detached { () -> [Int] in
            let head = Stored(0)
            let chain = GlitchTests.chain(from: head, length: 10_000)
            let end = chain[chain.count - 1]
            return batch {
                head.value = 5
                let inside = end.value
                head.value = 6
                return [inside, end.value, onOtherThread { end.value }]
            } + [end.value]
        }.value
        #expect(result == [10_005, 10_006, 10_000, 10_006])
    }

    @Test("a nested batch's writes are read by the outer one and applied only when the outermost ends")
    func nestedBatches() {
        let a = Stored(0)
        let b = Stored(0)
        let pair = Computed { [a.value, b.value] }
        let seen = Recorder<[Int]>()
        let reaction = observe { seen.append(pair.value) }
        batch {
            a.value = 1
            batch {
                b.value = 2
                #expect(pair.value == [1, 2])
            }
            #expect(pair.value == [1, 2], "the inner batch's writes stay visible")
            #expect(onOtherThread { pair.value } == [0, 0], "and are not applied yet")
            #expect(seen.all == [[0, 0]])
        }
        #expect(seen.all == [[0, 0], [1, 2]])
        reaction.cancel()
    }

    @Test("a batch run by a reaction (writeInOrder) reads its writes; other threads see none until it is applied")
    func batchInsideReaction() {
        let trigger = Stored(0)
        let a = Stored(0)
        let b = Stored(0)
        let sum = Computed { a.value + b.value }
        let insideBatch = Recorder<[Int]>()
        let otherThread = Recorder<[Int]>()
        let reaction = observe {
            guard trigger.value == 1 else { return }
            writeInOrder {
                a.value = 1
                b.value = 2
                insideBatch.append([a.value, b.value, sum.value])
                otherThread.append(onOtherThread { [a.value, b.value, sum.value] })
            }
            // A plain batch in a reaction: its writes are queued, and applied as one unit.
            batch {
                a.value = 10
                b.value = 20
            }
        }
        trigger.value = 1
        #expect(insideBatch.all == [[1, 2, 3]])
        #expect(otherThread.all == [[0, 0, 0]])
        #expect([a.value, b.value, sum.value] == [10, 20, 30])
        reaction.cancel()
    }

    @Test("a reaction started inside a batch sees the batch's writes, and the final values after it")
    func reactionStartedInsideBatch() {
        let a = Stored(0)
        let doubled = Computed { a.value * 2 }
        let seen = Recorder<[Int]>()
        var reaction: Subscription?
        batch {
            a.value = 1
            reaction = observe { seen.append([a.value, doubled.value]) }
            #expect(seen.all == [[1, 2]])
            a.value = 3
        }
        #expect(seen.all.last == [3, 6])
        a.value = 4
        #expect(seen.all.last == [4, 8])
        reaction?.cancel()
    }

    /// A reaction created inside a batch, after the batch wrote what it reads, runs first in the
    /// batch's view. Once the batch is applied it has seen every value the batch committed, so
    /// it does not run again with the same value (it used to: `[5, 5]`).
    @Test("a reaction created inside a batch after its write runs once with that value")
    func reactionCreatedAfterAWriteInTheBatch() {
        let value = Stored(0)
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { value.value })
        #expect(seen.all == [5])
        value.value = 6
        #expect(seen.all == [5, 6])
        reaction.cancel()
    }

    @Test("an onChange made inside a batch after its write hears nothing when the batch is applied")
    func onChangeCreatedAfterAWriteInTheBatch() {
        let value = Stored(0)
        let heard = Recorder<String>()
        var subscription: Subscription?
        batch {
            value.value = 5
            subscription = value.onChange { old, new in heard.append("\(old) → \(new)") }
        }
        #expect(heard.all == [])
        value.value = 6
        #expect(heard.all == ["5 → 6"])
        subscription?.cancel()
    }

    @Test("a reaction created inside a batch that then writes the value again runs again with the last write")
    func reactionCreatedBeforeALaterWriteInTheBatch() {
        let value = Stored(0)
        let seen = Recorder<Int>()
        var first: Subscription?
        var second: Subscription?
        batch {
            value.value = 5
            first = observe { seen.append(value.value) }
            value.value = 7
            second = observe { seen.append(100 + value.value) }
        }
        // The first saw 5, which the batch did not commit: it runs again with 7. The second
        // saw 7, what was committed: once.
        #expect(seen.all == [5, 107, 7])
        first?.cancel()
        second?.cancel()
    }

    @Test("a reaction that saw a batch's write the batch then undid runs again with the committed value")
    func reactionCreatedBeforeTheBatchWritesTheOldValueBack() {
        let value = Stored(0)
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { value.value }, after: { value.value = 0 })
        #expect(seen.all == [5, 0], "the reaction must not be left with a value that was never committed")
        reaction.cancel()
    }

    @Test("a reaction created inside a batch that wrote the committed value again runs once")
    func reactionCreatedAfterAnEqualWriteInTheBatch() {
        let value = Stored(3)
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 3 }, reading: { value.value })
        #expect(seen.all == [3])
        value.value = 4
        #expect(seen.all == [3, 4])
        reaction.cancel()
    }

    /// The reaction's edge to a computed value read in the batch's view holds a version no
    /// computed value has (`_Graph.privateReadVersion`); the value it saw is kept, and the
    /// first check after the batch compares it with the committed one.
    @Test("a reaction created inside a batch that reads a computed value of its write runs once")
    func reactionCreatedAfterAWriteReadsAComputedValue() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { doubled.value })
        #expect(seen.all == [10])
        value.value = 6
        #expect(seen.all == [10, 12])
        reaction.cancel()
    }

    @Test("a reaction created inside a batch that reads a chain of computed values of its write runs once")
    func reactionCreatedAfterAWriteReadsAChainOfComputedValues() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let quadrupled = Computed { doubled.value * 2 }
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { "\(quadrupled.value),\(doubled.value)" })
        #expect(seen.all == ["20,10"])
        value.value = 6
        #expect(seen.all == ["20,10", "24,12"])
        reaction.cancel()
    }

    @Test("a reaction created inside a batch that reads a computed value a later write of the batch changes runs again")
    func reactionCreatedBetweenTwoWritesReadsAComputedValue() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { doubled.value }, after: { value.value = 7 })
        #expect(seen.all == [10, 14])
        reaction.cancel()
    }

    /// A computed value without equality counts every evaluation as a change: the committed
    /// evaluation runs the reaction again, with the value it saw, as it runs any reaction that
    /// read the value.
    @Test("a reaction created inside a batch that reads a computed value without equality runs again with it")
    func reactionCreatedAfterAWriteReadsAComputedValueWithoutEquality() {
        let value = Stored(0)
        let doubled = Computed { NotEquatable(value: value.value * 2) }
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { doubled.value.value })
        #expect(seen.all == [10, 10])
        reaction.cancel()
    }

    /// The equality is the computed value's own (`Computed(equals:)`), kept by its node: the
    /// committed value is compared with the one the reaction saw as `==` would be.
    @Test("a reaction created inside a batch that reads a computed value with an equality of its own runs once")
    func reactionCreatedAfterAWriteReadsAComputedValueWithItsOwnEquality() {
        let value = Stored(0)
        let doubled = Computed(equals: { $0.value == $1.value }) { NotEquatable(value: value.value * 2) }
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { doubled.value.value })
        #expect(seen.all == [10])
        value.value = 6
        #expect(seen.all == [10, 12])
        reaction.cancel()
    }

    @Test("an equality of its own that refuses the committed value runs the reaction again with it")
    func reactionCreatedAfterAWriteReadsAComputedValueWhoseEqualityRefuses() {
        let value = Stored(0)
        let doubled = Computed(equals: { _, _ in false }) { NotEquatable(value: value.value * 2) }
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { doubled.value.value })
        #expect(seen.all == [10, 10])
        reaction.cancel()
    }

    @Test("a throwing computed value read inside a batch by a reaction created there runs it once")
    func reactionCreatedAfterAWriteReadsAThrowingComputedValue() {
        let value = Stored(0)
        // `Result<Int, any Error>`: compared by its success value, an equality of its own.
        let checked = Computed { () throws -> Int in value.value * 2 }
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { (try? checked.value.get()) ?? -1 })
        #expect(seen.all == [10])
        value.value = 6
        #expect(seen.all == [10, 12])
        reaction.cancel()
    }

    @Test("a reaction created inside a batch runs again when another source the batch wrote after it changes")
    func reactionCreatedInABatchSeesLaterWritesOfOtherValues() {
        let a = Stored(0)
        let b = Stored(0)
        let (seen, reaction) = reactionStartedInABatch(
            before: { a.value = 1 }, reading: { "\(a.value),\(b.value)" }, after: { b.value = 2 })
        #expect(seen.all == ["1,0", "1,2"])
        reaction.cancel()
    }

    @Test("equal writes inside a batch are counted by writeCount, and reported once")
    func equalWritesCounted() {
        let name = Stored("Ada")
        let counts = Recorder<Int>()
        let reaction = observe { counts.append(name.writeCount) }
        batch {
            name.value = "Ada"
            name.value = "Ada"
            #expect(name.writeCount == 2)
        }
        #expect(counts.all == [0, 2])
        reaction.cancel()
    }

    /// Records whether the graph's lock was held when it was freed.
    final class Probe: @unchecked Sendable {
        let freedUnderLock: Recorder<Bool>
        init(_ log: Recorder<Bool>) { freedUnderLock = log }
        deinit { freedUnderLock.append(_graph.lock.isHeldForTesting) }
    }

    @Test("values a batch replaces are released with the graph's lock released")
    func replacedValuesReleasedUnlocked() {
        let log = Recorder<Bool>()
        let holder = Stored(Probe(log))
        batch {
            holder.value = Probe(log)  // replaces the committed value when the batch ends
            holder.value = Probe(log)  // replaces the staged value at once
        }
        #expect(log.all == [false, false])
    }

    @Test("a stored value released inside a batch keeps its write until the batch is applied")
    func releasedInsideBatch() {
        weak var weakValue: Stored<Int>?
        batch {
            var value: Stored<Int>? = Stored(0)
            weakValue = value
            value?.value = 7
            value = nil
            #expect(weakValue?.value == 7)
        }
        #expect(weakValue == nil, "freed once the batch is applied")
    }

    @Test("a body that throws still applies every write")
    func throwingBodyApplies() {
        struct Failure: Error {}
        let a = Stored(0)
        let b = Stored(0)
        #expect(throws: Failure.self) {
            try batch {
                a.value = 1
                b.value = 2
                throw Failure()
            }
        }
        #expect(onOtherThread { [a.value, b.value] } == [1, 2])
    }

    @Test("a computed value that writes fails with a clear message when read inside a batch")
    func writeInsidePrivateDerivation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let source = Stored(0)
                let target = Stored(0, name: "target")
                let writer = Computed(name: "writer") { () -> Int in
                    if source.value == 1 { target.value = 1 }
                    return source.value
                }
                _ = writer.value
                batch {
                    source.value = 1
                    _ = writer.value
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'target' was written while Computed 'writer' was being evaluated"))
    }

    @Test("a computed value that writes inside untracked is refused inside a batch")
    func untrackedWriteInsideDerivation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let target = Stored(0, name: "target")
                let writer = Computed(name: "writer") { () -> Int in
                    untracked { target.value = 1 }
                    return 0
                }
                batch { _ = writer.value }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'target' was written while Computed 'writer' was being evaluated"))
    }

    @Test("a cycle that exists only in the batch's view fails with a message")
    func cycleInBatchView() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let isShort = Stored(true)
                let holder = Cell<Computed<Int>?>(nil)
                let a = Computed(name: "a") { isShort.value ? 0 : (holder.value?.value ?? 0) + 1 }
                let b = Computed(name: "b") { a.value + 1 }
                holder.value = b
                _ = b.value
                batch {
                    isShort.value = false
                    _ = b.value
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("dependency cycle"))
        #expect(message.contains("'a'"))
    }
}

/// A value without `==`: a computed value of it has no equality.
private struct NotEquatable: Sendable {
    let value: Int
}
