import Testing
@testable import Ripple

/// A value whose equality refuses an older value: a write of a lower `stamp` than the one held
/// is "equal", and dropped (as RippleStore's snapshots and entities compare).
private struct Stamped: Sendable {
    var stamp: Int
}

/// Reactions started inside a batch that read a value the batch staged (see `_StagedRead`):
/// what the batch's apply runs again, and what it must not, with other threads writing the same
/// value meanwhile.
@Suite("Reactions reading a batch's staged values")
struct BatchStagedReadTests {
    @Test(
        "a batch that writes a value back after a reaction read the value in between tells no other reader of a change")
    func writeBackTellsOtherReadersNothing() {
        let value = Stored(0)
        let outside = Recorder<Int>()
        let heard = Recorder<String>()
        let seen = Recorder<Int>()
        let watcher = observe { outside.append(value.value) }
        let change = value.onChange { old, new in heard.append("\(old) → \(new)") }
        var reaction: Subscription?
        batch {
            value.value = 5
            reaction = observe { seen.append(value.value) }
            value.value = 0
        }
        #expect(seen.all == [5, 0], "the reaction that saw 5 runs again with what was committed")
        #expect(outside.all == [0], "a reaction that saw 0 does not run for a batch that left 0")
        #expect(heard.all == [], "an onChange hears no change from 0 to 0")
        value.value = 1
        #expect(seen.all == [5, 0, 1])
        #expect(outside.all == [0, 1])
        #expect(heard.all == ["0 → 1"])
        watcher.cancel()
        change.cancel()
        reaction?.cancel()
    }

    @Test("a batch that writes a value back after a reaction's read leaves the version alone")
    func writeBackKeepsTheVersion() {
        let value = Stored(0)
        let evaluations = Counter()
        let counted = Computed { () -> Int in
            evaluations.increment()
            return value.value * 2
        }
        let live = observe { _ = counted.value }
        #expect(evaluations.value == 1)
        var reaction: Subscription?
        batch {
            value.value = 5
            reaction = observe { _ = value.value }
            value.value = 0
        }
        #expect(evaluations.value == 1, "nothing the value feeds is evaluated again")
        live.cancel()
        reaction?.cancel()
    }

    @Test(
        "a write-back applied after another thread's newer write does not replace it with a value the equality refuses")
    func writeBackDoesNotOverrideANewerValue() {
        let value = Stored(Stamped(stamp: 0), equals: { old, new in new.stamp <= old.stamp })
        let seen = Recorder<Int>()
        var reaction: Subscription?
        batch {
            value.value = Stamped(stamp: 1)
            reaction = observe { seen.append(value.value.stamp) }
            value.value = Stamped(stamp: 2)
            // Another thread's write, committed before this batch is applied: the batch's 2 is
            // older, and its apply must drop it, as it would without the reaction.
            onOtherThread { value.value = Stamped(stamp: 3) }
        }
        #expect(value.value.stamp == 3)
        #expect(seen.all.last == 3)
        reaction?.cancel()
    }

    @Test(
        "two threads' batches write one value, each with a reaction started after its write: each ends with the value committed last"
    )
    func twoThreadsStageOneValue() {
        for round in 0..<40 {
            let value = Stored(0)
            let first = Recorder<Int>()
            let second = Recorder<Int>()
            let subscriptions = Recorder<Subscription>()
            let firstStaged = DispatchSemaphoreLike()
            let secondStaged = DispatchSemaphoreLike()
            let firstDone = DispatchSemaphoreLike()
            let secondDone = DispatchSemaphoreLike()
            // Both batches are open with their writes staged (the first in the value's own
            // slot, the second apart) before either ends; then one ends, then the other.
            let sameValue = round % 2 == 0
            let a = 5, b = sameValue ? 5 : 6
            let firstEndsFirst = round % 4 < 2
            Thread.detachNewThreadLike {
                batch {
                    value.value = a
                    subscriptions.append(observe { first.append(value.value) })
                    firstStaged.signal()
                    secondStaged.wait()
                    if !firstEndsFirst { secondDone.wait() }
                }
                firstDone.signal()
            }
            Thread.detachNewThreadLike {
                firstStaged.wait()
                batch {
                    value.value = b
                    subscriptions.append(observe { second.append(value.value) })
                    secondStaged.signal()
                    if firstEndsFirst { firstDone.wait() }
                }
                secondDone.signal()
            }
            firstDone.wait()
            secondDone.wait()
            let final = value.value
            #expect(final == (firstEndsFirst ? b : a), "round \(round): the batch that ends last wins")
            #expect(first.all.last == final, "round \(round): the first reaction saw \(first.all)")
            #expect(second.all.last == final, "round \(round): the second reaction saw \(second.all)")
            for subscription in subscriptions.all { subscription.cancel() }
        }
    }

    @Test("two threads' batches write a value apart with a reaction that then sees the value written back")
    func twoThreadsWriteBackApart() {
        let value = Stored(0)
        let seen = Recorder<Int>()
        let owner = DispatchSemaphoreLike()
        let release = DispatchSemaphoreLike()
        let ownerDone = DispatchSemaphoreLike()
        // Another thread's batch holds the value's own slot until this one has staged.
        Thread.detachNewThreadLike {
            batch {
                value.value = 9
                owner.signal()
                release.wait()
            }
            ownerDone.signal()
        }
        owner.wait()
        var reaction: Subscription?
        batch {
            value.value = 5
            reaction = observe { seen.append(value.value) }
            value.value = 0
            release.signal()
            ownerDone.wait()
        }
        // The other batch committed 9; this one's 0 is applied last.
        #expect(value.value == 0)
        #expect(seen.all.last == 0, "saw \(seen.all)")
        reaction?.cancel()
    }

    @Test(
        "a reaction that read a value through a computed value in the batch's view runs again when the batch writes it back"
    )
    func computedReadBeforeAWriteBack() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { doubled.value }, after: { value.value = 0 })
        #expect(seen.all.last == 0, "saw \(seen.all): must not be left with 10, never committed")
        reaction.cancel()
    }

    @Test(
        "a reaction that read a computed value in the batch's view runs again when the applied batch leaves that value as it was"
    )
    func computedReadOfAValueTheCommitCutsOff() {
        let value = Stored(0)
        let parity = Computed { value.value % 2 }
        let (seen, reaction) = reactionStartedInABatch(
            before: { value.value = 5 }, reading: { parity.value }, after: { value.value = 2 })
        #expect(parity.value == 0)
        #expect(seen.all.last == 0, "saw \(seen.all): must not be left with 1, never committed")
        reaction.cancel()
    }

    @Test("a reaction started in a batch that reads the write count runs once for the batch's writes")
    func writeCountReadInTheBatch() {
        let value = Stored(0)
        let (seen, reaction) = reactionStartedInABatch(before: { value.value = 5 }, reading: { value.writeCount })
        #expect(value.writeCount == 1)
        #expect(seen.all == [1])
        value.value = 6
        #expect(seen.all == [1, 2])
        reaction.cancel()
    }

    @Test(
        "a reaction started in a batch that reads the write count runs once for several writes, and a reader from before the batch runs once for them"
    )
    func writeCountOfSeveralWritesReadInTheBatch() {
        let value = Stored(0)
        let before = Recorder<Int>()
        let earlier = observe { before.append(value.writeCount) }
        let (seen, reaction) = reactionStartedInABatch(
            before: {
                value.value = 5; value.value = 7
            }, reading: { value.writeCount }, after: { value.value = 8 })
        #expect(value.writeCount == 3)
        #expect(seen.all == [2, 3], "saw \(seen.all): 2 in the batch's view, then 3 once the third write is counted")
        #expect(before.all == [0, 3], "saw \(before.all)")
        reaction.cancel()
        earlier.cancel()
    }

    @Test(
        "a reaction started in a batch that reads a value the batch's equality drops, while a newer one is committed, ends with the committed one"
    )
    func readOfAStagedValueOlderThanTheCommittedOne() {
        let value = Stored(Stamped(stamp: 0), equals: { old, new in new.stamp <= old.stamp })
        let seen = Recorder<Int>()
        var reaction: Subscription?
        batch {
            value.value = Stamped(stamp: 1)
            onOtherThread { value.value = Stamped(stamp: 3) }
            reaction = observe { seen.append(value.value.stamp) }
        }
        #expect(value.value.stamp == 3)
        #expect(seen.all == [1, 3], "saw \(seen.all)")
        reaction?.cancel()
    }

    @Test(
        "a reaction started in a batch that reads, through a computed value, a value the batch's equality drops, while a newer one is committed, ends with the committed one"
    )
    func computedReadOfAStagedValueOlderThanTheCommittedOne() {
        let value = Stored(Stamped(stamp: 0), equals: { old, new in new.stamp <= old.stamp })
        let stamp = Computed { value.value.stamp }
        let seen = Recorder<Int>()
        var reaction: Subscription?
        batch {
            value.value = Stamped(stamp: 1)
            onOtherThread { value.value = Stamped(stamp: 3) }
            reaction = observe { seen.append(stamp.value) }
        }
        #expect(stamp.value == 3)
        #expect(seen.all.last == 3, "saw \(seen.all)")
        reaction?.cancel()
    }

    @Test("a reaction started in a batch that wrote a value equal to the committed one runs once")
    func readOfAStagedValueEqualToTheCommittedOne() {
        let value = Stored(Stamped(stamp: 2), equals: { old, new in new.stamp <= old.stamp })
        let seen = Recorder<Int>()
        var reaction: Subscription?
        batch {
            value.value = Stamped(stamp: 2)
            reaction = observe { seen.append(value.value.stamp) }
        }
        #expect(seen.all == [2], "saw \(seen.all)")
        value.value = Stamped(stamp: 4)
        #expect(seen.all == [2, 4], "saw \(seen.all)")
        reaction?.cancel()
    }
}
