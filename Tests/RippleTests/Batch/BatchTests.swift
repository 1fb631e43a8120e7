import Testing
@testable import Ripple

@Suite("Batch")
struct BatchTests {
    @Test("reactions run once when the outermost batch ends")
    func onePropagation() {
        let a = Stored(0)
        let b = Stored(0)
        let seen = Recorder<String>()
        let subscription = observe { seen.append("\(a.value)\(b.value)") }
        batch {
            a.value = 1
            batch { b.value = 1 }
            #expect(seen.all == ["00"], "nested batch end does not deliver")
        }
        #expect(seen.all == ["00", "11"])
        subscription.cancel()
    }

    @Test("reads inside a batch see the latest writes")
    func readsSeeLatestWrites() {
        let a = Stored(1)
        let doubled = Computed { a.value * 2 }
        let subscription = observe { _ = doubled.value }
        batch {
            a.value = 5
            #expect(a.value == 5)
            #expect(doubled.value == 10)
            a.value = 6
            #expect(doubled.value == 12)
        }
        subscription.cancel()
    }

    @Test("reactions run even when the body throws")
    func runsWhenThrowing() {
        struct Failure: Error {}
        let a = Stored(0)
        let seen = Recorder<Int>()
        let subscription = observe { seen.append(a.value) }
        #expect(throws: Failure.self) {
            try batch {
                a.value = 1
                throw Failure()
            }
        }
        #expect(seen.all == [0, 1])
        subscription.cancel()
    }

    @Test("a value changed and changed back in one batch triggers no reaction")
    func changedBack() {
        let a = Stored(0)
        let derived = Computed { a.value + 1 }
        let runs = Counter()
        let direct = observe {
            _ = a.value; runs.increment()
        }
        let indirect = observe {
            _ = derived.value; runs.increment()
        }
        batch {
            a.value = 1
            a.value = 2
            a.value = 0
        }
        #expect(runs.value == 2)
        batch {
            a.value = 7
            a.value = 0
            a.value = 3
        }
        #expect(runs.value == 4)
        _ = (direct, indirect)
    }

    @Test("batch returns the body's result")
    func returnsResult() {
        #expect(batch { 42 } == 42)
    }

    @Test("writeInOrder inside a reaction reads the value committed before it")
    func writeInOrderReadsCommittedValue() {
        let trigger = Stored(0)
        let count = Stored(0)
        let subscription = observe {
            guard trigger.value == 1 else { return }
            writeInOrder { count.value = untracked { count.value } + 1 }
            writeInOrder { count.value = untracked { count.value } + 1 }
        }
        trigger.value = 1
        #expect(count.value == 2)
        writeInOrder { count.value += 10 }
        #expect(count.value == 12, "outside reactions it runs at once")
        subscription.cancel()
    }

    @Test("writes made by a reaction's first run inside a batch are applied, batched or not")
    func firstRunWritesInsideBatch() {
        let x = Stored(0), y = Stored(0), z = Stored(0)
        var subscriptions: [Subscription] = []
        batch {
            subscriptions.append(observe { x.value = 1 })
            subscriptions.append(
                observe {
                    batch {
                        y.value = 2; z.value = 3
                    }
                })
        }
        #expect(x.value == 1)
        #expect(y.value == 2)
        #expect(z.value == 3)
        let trigger = Stored(0)
        let w = Stored(0)
        let inner = Cell<Subscription?>(nil)
        subscriptions.append(
            observe {
                guard trigger.value == 1 else { return }
                writeInOrder { inner.value = withoutOwner { observe { w.value = 4 } } }
            })
        trigger.value = 1
        #expect(w.value == 4, "a reaction started by writeInOrder inside a reaction: its first run's write lands")
        inner.value?.cancel()
        _ = subscriptions
    }

    @Test("a deinitializer run when a batch's commit releases what it replaced may make batches of its own")
    func deinitializerMakesBatchesAfterACommit() {
        let first = Stored(0), second = Stored(0), third = Stored(0)
        // Two writes in each batch: staged, so the commit's release of the replaced values runs
        // the deinitializers, whose batches stage and commit on the same thread meanwhile.
        let inner = Stored(
            DeinitAction {
                batch {
                    second.value = 1; third.value = 1
                }
            })
        let outer = Stored(
            DeinitAction {
                batch {
                    inner.value = DeinitAction()
                    first.value = 1
                }
            })
        batch {
            outer.value = DeinitAction()
            first.value = 2
        }
        #expect(first.value == 1, "the batch made by the outer deinitializer came after the one that released it")
        #expect(second.value == 1 && third.value == 1)
        batch {
            first.value = 3
            second.value = 3
        }
        #expect(first.value == 3 && second.value == 3, "the staging is intact for the next batch")
    }

    @Test(
        "a batch made by a deinitializer while a commit releases leaves the committed batch's read-modify-writes ended once"
    )
    func deinitializerBatchAfterAReadModifyWrite() {
        let counter = Stored(0), other = Stored(0)
        let holder = Stored(DeinitAction { batch { other.value = 1 } })
        batch {
            counter.value += 1  // held for the batch until it is applied
            holder.value = DeinitAction()  // the old one is released after the commit, and batches
        }
        #expect(other.value == 1)
        counter.value += 1
        #expect(counter.value == 2)
        // Ended twice, its hold would have gone below zero and never be cleared: every other
        // thread's write of it would wait forever.
        #expect(_graph.withLock { held in counter._exclusiveOwner(held) } == nil)
    }
}
