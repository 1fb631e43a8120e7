#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// A batch's first write is kept in its thread's context, unlocked, and applied by the commit
/// (see `_SoleWrite`); everything that could see the batch's view or add to it stages it first.
/// These tests pin both halves: the write is kept (the saving), and every way of looking at the
/// batch from its own thread sees it (the guarantee). The other batch suites run on this path
/// too, since it is every batch's first write.
@Suite("A batch's sole write")
struct SoleWriteTests {
    /// Whether this thread's batch keeps a sole write not yet staged.
    var isKept: Bool { _ThreadContext.current.soleWrite.isPending }

    @Test("a batch's writes of one value are applied when the batch ends, with its reactions run once")
    func appliedOnceAtTheEnd() {
        let count = Stored(0, name: "count")
        let doubled = Computed { count.value * 2 }
        let seen = Recorder<Int>()
        let reaction = observe { seen.append(doubled.value) }
        batch {
            count.value = 1
            count.value = 2
        }
        #expect(!isKept)
        #expect(seen.all == [0, 4])
        #expect(count.writeCount == 2, "both writes counted")
        reaction.cancel()
    }

    // In a process of its own: a tracer installed by a test running meanwhile (tracers count
    // process-wide) makes every batched write stage, as it should.
    @Test("a batch's first write is kept unstaged, a second write of the value replaces it, and the commit applies it")
    func keptWithoutStaging() async {
        await #expect(processExitsWith: .success) {
            let count = Stored(0)
            var kept: [Bool] = []
            var staged = true
            batch {
                count.value = 1
                kept.append(_ThreadContext.current.soleWrite.isPending)
                count.value = 2
                kept.append(_ThreadContext.current.soleWrite.isPending)
                // Nothing staged: the batch took no lock.
                staged = _ThreadContext.current.staging.isActive
            }
            let applied = count.value == 2 && !_ThreadContext.current.soleWrite.isPending
            if kept != [true, true] || staged || !applied { exit(1) }
        }
    }

    @Test("each way of looking at the batch from its own thread stages the sole write first, and sees it")
    func everyReadSeesIt() {
        let count = Stored(1, name: "count")
        let doubled = Computed { count.value * 2 }
        let other = Stored(10)
        // A plain read of the written value, and of another one.
        batch {
            count.value = 2
            #expect(other.value == 10)
            #expect(!isKept)
            #expect(count.value == 2)
        }
        // A computed value that depends on it.
        batch {
            count.value = 3
            #expect(doubled.value == 6)
            #expect(!isKept)
        }
        // Without tracking, and through the peek the models use.
        batch {
            count.value = 4
            #expect(untracked { count.value } == 4)
        }
        batch {
            count.value = 5
            #expect(count.peek() == 5)
        }
        // The write count, and a read-modify-write.
        batch {
            count.value = 6
            #expect(count.writeCount == 5, "the writes of the batches before, and this one")
        }
        batch {
            count.value = 7
            count.value += 1
            #expect(count.value == 8)
        }
        // A reaction created inside the batch reads it in its first run.
        let seen = Recorder<Int>()
        var reaction: Subscription?
        batch {
            count.value = 9
            reaction = observe { seen.append(doubled.value) }
        }
        #expect(seen.all.first == 18)
        reaction?.cancel()
    }

    @Test("a main-actor computed value read inside the batch sees the sole write")
    @MainActor
    func mainActorComputed() {
        let count = Stored(1)
        let tripled = MainActorComputed { count.value * 3 }
        #expect(tripled.value == 3)
        batch {
            count.value = 2
            #expect(tripled.value == 6)
        }
        #expect(tripled.value == 6)
    }

    @Test("a second write to another value stages the first, and both are applied in the order of their first writes")
    func secondWriteStagesTheFirst() {
        let first = Stored(0), second = Stored(0)
        let order = Recorder<String>()
        let a = observe { if first.value != 0 { order.append("first") } }
        let b = observe { if second.value != 0 { order.append("second") } }
        batch {
            first.value = 1
            second.value = 1
            #expect(!isKept)
            #expect(_ThreadContext.current.staging.isActive)
            #expect(first.value == 1 && second.value == 1)
        }
        #expect(order.all == ["first", "second"])
        a.cancel()
        b.cancel()
    }

    @Test("a value larger than the context keeps is staged at once")
    func largeValueIsStaged() {
        struct Large: Equatable {
            var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
            static func == (a: Large, b: Large) -> Bool { a.words.0 == b.words.0 }
        }
        #expect(MemoryLayout<Large>.size > _SoleWrite.capacity)
        let large = Stored(Large())
        batch {
            large.value = Large(words: (1, 0, 0, 0, 0, 0, 0, 0, 0))
            #expect(!isKept)
        }
        #expect(large.value.words.0 == 1)
    }

    @Test("another thread reads the committed values while the batch keeps its sole write")
    func otherThreadsSeeNothing() {
        let count = Stored(1)
        let doubled = Computed { count.value * 2 }
        batch {
            count.value = 5
            // No read on this thread first: the write is still kept when the other thread reads.
            let seen = onOtherThread { [count.value, doubled.value, count.writeCount] }
            #expect(seen == [1, 2, 0])
        }
        #expect(onOtherThread { [count.value, doubled.value] } == [5, 10])
    }

    @Test("the value a sole write replaced in the batch, and the one its commit replaced, are released")
    func replacedValuesAreReleased() {
        final class Payload: Sendable {}
        weak var first: Payload?
        weak var second: Payload?
        weak var committed: Payload?
        let initial = Payload()
        committed = initial
        let holder = Stored(initial)
        batch {
            let one = Payload()
            first = one
            holder.value = one
            let two = Payload()
            second = two
            holder.value = two
        }
        _ = consume initial
        #expect(first == nil, "replaced inside the batch")
        #expect(committed == nil, "replaced by the commit")
        #expect(second != nil && second === holder.value)
    }

    @Test("the deinitializer of the value a sole write replaced may make a batch of its own")
    func deinitializerMakesABatch() {
        let other = Stored(0)
        let holder = Stored(DeinitAction { batch { other.value = 1 } })
        batch { holder.value = DeinitAction() }
        #expect(other.value == 1)
        batch { other.value = 2 }
        #expect(other.value == 2, "the context is free for the next batch")
    }

    @Test("a write queued by a reaction is applied in the next round as a one-write batch")
    func queuedWriteFromAReaction() {
        let source = Stored(0), mirror = Stored(0)
        let seen = Recorder<Int>()
        let copy = observe { mirror.value = source.value * 10 }
        let show = observe { seen.append(mirror.value) }
        source.value = 1
        source.value = 2
        #expect(seen.all == [0, 10, 20])
        copy.cancel()
        show.cancel()
    }

    @Test("while a tracer is installed, every write of a batch is traced when it is made")
    func tracedWritesOfOneValue() {
        let recorder = TraceRecorder()
        let count = Stored(1, name: "count")
        withTracer(recorder) {
            batch {
                count.value = 2
                count.value = 3
            }
        }
        #expect(recorder.lines == ["batch start", "write 'count': 1 → 2", "write 'count': 1 → 3", "batch end"])
    }

    @Test("a write from inside the equality check of a batch's write fails with a message, kept or staged")
    func equalityThatWrites() async throws {
        // Kept: the batch's only write, applied by the commit.
        let kept = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let other = Stored(0, name: "other")
                let box = Stored(
                    1, name: "box",
                    equals: { a, b in
                        batch { other.value = 1 }
                        return a == b
                    })
                batch { box.value = 2 }
            })
        // Staged: a second write in the batch stages the first.
        let staged = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let other = Stored(0, name: "other")
                let box = Stored(
                    1, name: "box",
                    equals: { a, b in
                        other.value += 1
                        return a == b
                    })
                let more = Stored(0)
                batch {
                    box.value = 2
                    more.value = 1
                }
            })
        for result in [kept, staged] {
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("Stored 'other' was written while the equality check of Stored 'box' was running"))
        }
    }

    // In a process of its own: the tracer is installed for the whole process.
    @Test(
        "a tracer installed by another thread after the batch's write sees the batch: its commit does not take the unbatched write's path"
    )
    func tracerInstalledAfterTheWrite() async {
        await #expect(processExitsWith: .success) {
            let recorder = TraceRecorder()
            let count = Stored(1, name: "count")
            let tracer = Recorder<Subscription>()
            batch {
                count.value = 2
                // Installed from another thread: one installed from this thread would stage
                // the write first, as anything under the lock on this thread does.
                runOnThreads(1) { _ in tracer.append(installTracer(recorder)) }
            }
            tracer.all.forEach { $0.cancel() }
            // Committed as an unbatched write, the trace would show the write alone.
            if recorder.lines != ["batch start", "write 'count': 1 → 2", "batch end"] || count.value != 2 { exit(1) }
        }
    }

    @Test(
        "a one-write batch is committed as that write: its reactions run once, and one a reaction makes is delivered after"
    )
    func committedAsAWrite() {
        let first = Stored(0, name: "first"), second = Stored(0, name: "second")
        let seen = Recorder<String>()
        let copy = observe {
            let value = first.value
            seen.append("first \(value)")
            if value > 0 { batch { second.value = value * 10 } }
        }
        let show = observe { seen.append("second \(second.value)") }
        seen.removeAll()
        batch { first.value = 1 }
        #expect(seen.all == ["first 1", "second 10"])
        #expect(first.writeCount == 1 && second.writeCount == 1)
        copy.cancel()
        show.cancel()
    }

    #if RIPPLE_INVARIANTS
    // In a process of its own: no tracer installed by another test makes the batches stage.
    @Test("only a batch whose one change is one write of one value takes the unbatched write's path")
    func onlyOneWriteTakesThePath() async {
        await #expect(processExitsWith: .success) {
            let count = Stored(0), other = Stored(0)
            func committed(_ body: () -> Void) -> Int {
                let before = _ThreadContext.current.soleWritesCommittedAsWrites
                body()
                return _ThreadContext.current.soleWritesCommittedAsWrites - before
            }
            let one = committed { batch { count.value = 1 } }
            // Each of these batches takes it; the one the reaction makes inside the delivery is
            // queued for the next round instead, as every write a reaction makes.
            let reaction = observe { if count.value == 1 { batch { other.value = 10 } } }
            let nested = committed {
                batch { count.value = 0 }; batch { count.value = 1 }
            }
            reaction.cancel()
            let twice = committed {
                batch {
                    count.value = 2; count.value = 3
                }
            }
            let two = committed {
                batch {
                    count.value = 4; other.value = 1
                }
            }
            let modified = committed { batch { count.value += 1 } }
            let applied = count.value == 5 && other.value == 1 && count.writeCount == 7
            if one != 1 || nested != 2 || twice != 0 || two != 0 || modified != 0 || !applied { exit(1) }
            // Values of other types in turn: each write applies its own type's code (the kept
            // code is replaced when the class changes).
            let name = Stored("a"), pair = Stored([1, 2])
            let mixed = committed {
                batch { count.value = 6 }
                batch { name.value = "b" }
                batch { count.value = 7 }
                batch { pair.value = [3] }
                batch { name.value = "c" }
            }
            if mixed != 5 || count.value != 7 || name.value != "c" || pair.value != [3] { exit(2) }
        }
    }
    #endif

    @Test(
        "a batch whose body releases the last reference to the value it wrote keeps it until the commit, then releases it"
    )
    func bodyReleasesTheValue() {
        weak var released: Stored<Int>?
        batch {
            var value: Stored<Int>? = Stored(0)
            value?.value = 1
            released = value
            value = nil
        }
        #expect(released == nil)
        batch { _ = Stored(0) }
    }

    @Test("a traced one-write batch shows its start, the write and its end")
    func traced() {
        let recorder = TraceRecorder()
        let count = Stored(1, name: "count")
        withTracer(recorder) {
            batch { count.value = 2 }
        }
        #expect(recorder.lines == ["batch start", "write 'count': 1 → 2", "batch end"])
    }
}
