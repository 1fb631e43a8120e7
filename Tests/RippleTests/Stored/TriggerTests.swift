import Testing
@testable import Ripple

/// A reference type mutated in place: writing the same instance back is an equal write.
private final class Box: @unchecked Sendable {
    var items: [Int] = []
}

@Suite("Stored.trigger")
struct TriggerTests {
    @Test("trigger() runs the readers of a value changed in place, once")
    func triggerRunsReaders() {
        let box = Stored(Box(), equals: { $0 === $1 })
        let seen = Recorder<[Int]>()
        let subscription = observe { seen.append(box.value.items) }
        box.value.items.append(1)  // a compound assignment: same instance, equal, nothing runs
        #expect(seen.all == [[]])
        box.trigger()
        #expect(seen.all == [[], [1]])
        subscription.cancel()
    }

    @Test("trigger() bypasses the equality of the triggered value only, and updates computed values")
    func triggerBypassesEqualityThroughComputed() {
        let box = Stored(Box(), equals: { $0 === $1 })
        let other = Stored(0)
        let count = Computed(equals: nil) { box.value.items.count + other.value }
        let seen = Recorder<Int>()
        let subscription = observe { seen.append(count.value) }
        box.value.items.append(7)
        box.trigger()
        other.value = 0  // equal: still cut off
        #expect(seen.all == [0, 1])
        #expect(box.writeCount == 1)
        subscription.cancel()
    }

    @Test("inside a batch, readers run once, when the batch ends")
    func triggerInBatch() {
        let box = Stored(Box(), equals: { $0 === $1 })
        let count = Stored(0)
        let runs = Counter()
        let subscription = observe {
            _ = box.value; _ = count.value; runs.increment()
        }
        batch {
            box.trigger()
            count.value = 1
            box.trigger()
            #expect(runs.value == 1)
        }
        #expect(runs.value == 2)
        batch { box.trigger() }
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("inside a reaction, a trigger is queued in order like a write")
    func triggerInReactionIsQueuedInOrder() {
        let box = Stored(Box(), equals: { $0 === $1 })
        let start = Stored(0)
        let log = Recorder<String>()
        let reader = observe { log.append("read \(box.value.items)") }
        let writer = observe {
            guard start.value > 0 else { return }
            untracked { box.value }.items.append(start.value)
            box.trigger()
            log.append("writer done")
        }
        start.value = 5
        #expect(log.all == ["read []", "writer done", "read [5]"])
        reader.cancel()
        writer.cancel()
    }

    @Test("trigger { } triggers every Stored read in the closure, in one round")
    func triggerClosure() {
        let first = Stored(Box(), equals: { $0 === $1 })
        let second = Stored(Box(), equals: { $0 === $1 })
        let unread = Stored(Box(), equals: { $0 === $1 })
        let runs = Counter()
        let unreadRuns = Counter()
        let both = observe {
            _ = first.value; _ = second.value; runs.increment()
        }
        let other = observe {
            _ = unread.value; unreadRuns.increment()
        }
        trigger {
            first.value.items.append(1)
            second.value.items.append(2)
        }
        #expect(runs.value == 2)
        #expect(unreadRuns.value == 1)
        both.cancel()
        other.cancel()
    }

    @Test("trigger { } inside a reaction is queued after the round, as one change")
    func triggerClosureInReaction() {
        let first = Stored(Box(), equals: { $0 === $1 })
        let second = Stored(Box(), equals: { $0 === $1 })
        let start = Stored(false)
        let log = Recorder<String>()
        let reader = observe { log.append("read \(first.value.items) \(second.value.items)") }
        let writer = observe {
            guard start.value else { return }
            trigger {
                first.value.items.append(1)
                second.value.items.append(2)
            }
            log.append("writer done")
        }
        start.value = true
        #expect(log.all == ["read [] []", "writer done", "read [1] [2]"])
        reader.cancel()
        writer.cancel()
    }

    @Test("trigger() from other threads: readers end on the last change")
    func triggerFromThreads() {
        let tally = Counter()
        let box = Stored(tally, equals: { $0 === $1 })
        let seen = Recorder<Int>()
        let subscription = observe { seen.append(box.value.value) }
        let threads = 4, perThread = 200
        let done = (0..<threads).map { _ in DispatchSemaphoreLike() }
        for index in 0..<threads {
            let finished = done[index]
            Thread.detachNewThreadLike {
                for _ in 0..<perThread {
                    tally.increment()
                    box.trigger()
                }
                finished.signal()
            }
        }
        for finished in done { finished.wait() }
        // Triggers that land while the reaction runs on another thread are coalesced into one
        // run, as writes are; the last run sees every change.
        #expect(seen.all.last == threads * perThread)
        #expect(seen.count > 1 && seen.count <= 1 + threads * perThread)
        #expect(box.writeCount == threads * perThread)
        subscription.cancel()
    }
}

/// A review found `trigger { }` inside a `batch` that had staged a write stopping the program
/// ("closure argument was escaped in withoutActuallyEscaping block"): read in the batch's view,
/// its body ran a second time and the batch kept it.
@Suite("trigger { } inside a batch")
struct TriggerInBatchTests {
    @Test("after a staged write, it triggers what its body read, once, running the body once")
    func afterAStagedWrite() {
        let canvas = Stored(0)
        let other = Stored(0)
        let bodyRuns = Counter()
        let readerRuns = Counter()
        let reader = observe {
            _ = canvas.value
            readerRuns.increment()
        }
        batch {
            other.value = 1
            trigger {
                bodyRuns.increment()
                _ = canvas.value
            }
        }
        #expect(bodyRuns.value == 1)
        #expect(readerRuns.value == 2)
        reader.cancel()
    }
}
