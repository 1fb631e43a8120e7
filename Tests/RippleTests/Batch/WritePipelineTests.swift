import Testing
@testable import Ripple

/// The per-thread write state machine on its own: its routes and the actions its transitions
/// return (the graph and the reactions are exercised by the delivery model test).
@Suite("The write pipeline's transitions")
struct WritePipelineTests {
    /// A queued write that records its label when applied.
    static func write(_ label: String, into log: Cell<[String]>, writesNothing: Bool = false) -> _DeferredWrite {
        _DeferredWrite(apply: { log.value.append(label) }, reaction: nil, writesNothing: writesNothing)
    }

    /// Applies every write of a delivery's rounds, in order, as `deliverQueued` does.
    static func drainRounds(_ pipeline: inout _WritePipeline) -> [Bool] {
        var stagedInRound: [Bool] = []
        while case .apply(let write) = pipeline.nextRound() {
            pipeline.beginRound()
            stagedInRound.append(pipeline.route == .stage)
            write.apply()
            pipeline.endRound()
            pipeline.resumeDelivery()
        }
        return stagedInRound
    }

    @Test("a write is applied outside batches, staged inside, queued while delivering")
    func routes() {
        var pipeline = _WritePipeline()
        #expect(pipeline.route == .apply)
        #expect(pipeline.mayDeliver == true)
        pipeline.beginBatch()
        #expect(pipeline.route == .stage)
        #expect(pipeline.mayDeliver == false)
        pipeline.beginBatch()
        #expect(pipeline.endBatch() == .inner, "an inner batch commits nothing")
        #expect(pipeline.endBatch() == .commit, "the outermost batch commits")
        #expect(pipeline.route == .apply)

        pipeline.beginDelivery()
        #expect(pipeline.route == .queue)
        pipeline.beginBatch()
        #expect(pipeline.route == .queue, "a batch inside a reaction queues its writes")
        #expect(pipeline.endBatch() == .inner, "a batch that ends while delivering commits nothing")
        pipeline.endDelivery()
        #expect(pipeline.route == .apply)
    }

    @Test("queued writes are applied one round each, in order, staged")
    func rounds() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginDelivery()
        pipeline.queue(Self.write("a", into: log))
        pipeline.queue(Self.write("b", into: log))
        let staged = Self.drainRounds(&pipeline)
        #expect(log.value == ["a", "b"])
        #expect(staged == [true, true], "a round's writes are staged, like a batch's")
        if case .done = pipeline.nextRound() {} else { Issue.record("a round after the last") }
        pipeline.endDelivery()
        #expect(pipeline.hasQueuedWrites == false)
        #expect(pipeline.route == .apply)
    }

    @Test("a batch opened while delivering is queued as one unit when it ends")
    func batchInsideDelivery() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginDelivery()
        pipeline.queue(Self.write("before", into: log))
        pipeline.beginBatch()
        pipeline.queue(Self.write("x", into: log))
        pipeline.beginBatch()
        pipeline.queue(Self.write("y", into: log))
        _ = pipeline.endBatch()
        #expect(pipeline.hasQueuedWrites == true)
        _ = pipeline.endBatch()
        pipeline.queue(Self.write("after", into: log))
        var rounds: [[String]] = []
        while case .apply(let write) = pipeline.nextRound() {
            log.value = []
            write.apply()
            rounds.append(log.value)
        }
        #expect(rounds == [["before"], ["x", "y"], ["after"]])
        pipeline.endDelivery()
    }

    @Test("delivery work inside a user's batch applies what it queued as part of the batch")
    func deliveryWorkInsideBatch() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginBatch()
        let saved = pipeline.beginDeliveryWork()
        #expect(saved != nil)
        #expect(pipeline.beginDeliveryWork() == nil, "nested delivery work is part of the first")
        #expect(pipeline.route == .queue)
        pipeline.queue(Self.write("a", into: log))
        // A batch the work opens (above the user's) queues its writes as one unit.
        pipeline.beginBatch()
        pipeline.queue(Self.write("b", into: log))
        pipeline.queue(Self.write("c", into: log))
        _ = pipeline.endBatch()
        #expect(pipeline.endDeliveryWork(saved!) == .applyQueuedInBatch)
        #expect(pipeline.route == .stage)
        var applied = 0
        while let write = pipeline.nextQueuedInBatch() {
            write.apply()
            applied += 1
        }
        #expect(applied == 2)
        #expect(log.value == ["a", "b", "c"])
        pipeline.resumeQueue(after: saved!)
        #expect(pipeline.endBatch() == .commit)
        let outside = pipeline.beginDeliveryWork()
        #expect(outside != nil)
        #expect(pipeline.endDeliveryWork(outside!) == .deliver)
        pipeline.resumeQueue(after: outside!)
    }

    @Test("delivery work inside a round applies its own writes only; those queued before keep their rounds")
    func deliveryWorkInsideRound() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginDelivery()
        pipeline.queue(Self.write("send", into: log))
        pipeline.queue(Self.write("later", into: log))
        guard case .apply = pipeline.nextRound() else {
            Issue.record("no first round")
            return
        }
        // The round applies the send: its handlers run as delivery work, inside the round.
        pipeline.beginRound()
        let work = pipeline.beginDeliveryWork()!
        pipeline.queue(Self.write("handler", into: log))
        #expect(pipeline.endDeliveryWork(work) == .applyQueuedInBatch)
        while let write = pipeline.nextQueuedInBatch() { write.apply() }
        pipeline.resumeQueue(after: work)
        #expect(log.value == ["handler"], "the write queued before the send waits for its round")
        pipeline.endRound()
        pipeline.resumeDelivery()
        var later: [String] = []
        while case .apply(let write) = pipeline.nextRound() {
            log.value = []
            write.apply()
            later += log.value
        }
        #expect(later == ["later"])
        pipeline.endDelivery()
    }

    @Test("the rounds that write count toward a runaway loop; tracing's steps do not")
    func runaway() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginDelivery()
        for _ in 0..<_Graph.maximumRounds {
            pipeline.queue(Self.write("w", into: log))
            pipeline.queue(Self.write("trace", into: log, writesNothing: true))
        }
        #expect(Self.drainRounds(&pipeline).count == 2 * _Graph.maximumRounds)
        pipeline.queue(Self.write("one more", into: log))
        if case .runaway(let write) = pipeline.nextRound() {
            #expect(write.origin == "a change handler")
        } else {
            Issue.record("no runaway after \(_Graph.maximumRounds) rounds that wrote")
        }
        #expect(pipeline.isDelivering == false)
    }

    @Test("a step queued first runs before the writes already queued")
    func queueFirst() {
        let log = Cell<[String]>([])
        var pipeline = _WritePipeline()
        pipeline.beginDelivery()
        pipeline.queue(Self.write("a", into: log))
        pipeline.queue(Self.write("b", into: log))
        _ = pipeline.nextRound()
        pipeline.queueFirst(Self.write("step", into: log, writesNothing: true))
        while case .apply(let write) = pipeline.nextRound() { write.apply() }
        #expect(log.value == ["step", "b"])
        pipeline.endDelivery()
    }
}
