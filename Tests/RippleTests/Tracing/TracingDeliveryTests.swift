#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Ripple
import Testing

/// Where tracing events are delivered: events recorded before the lock is lent to another
/// thread, reasons recorded while another thread writes, and `withTracer` scopes that end
/// before their events are delivered.
@Suite struct TracingDeliveryTests {
    /// A batch whose commit waits for another thread's read-modify-write (`_Lock.wait()`, which
    /// lets other threads take the lock) after recording events: another thread's outermost
    /// release may drain the reference that asks for their delivery. They must still be
    /// delivered when this thread releases the lock, and the thread's later traces too.
    @Test("events recorded before a batch's commit waits for a read-modify-write are delivered")
    func eventsRecordedBeforeAWait() {
        let x = Stored(0, name: "review.wait.x")
        let y = Stored(0, name: "review.wait.y")
        let bHolding = DispatchSemaphoreLike(), bGo = DispatchSemaphoreLike()
        let aWrote = DispatchSemaphoreLike(), aGo = DispatchSemaphoreLike(), aDone = DispatchSemaphoreLike()
        let later = TraceRecorder()
        let leftPending = Recorder<Int>()
        // B holds `x` for its batch's read-modify-write until told to end the batch.
        Thread.detachNewThreadLike {
            batch {
                x.update { $0 += 10 }
                bHolding.signal()
                bGo.wait()
            }
        }
        // A's batch writes `x` before any tracer is installed (kept as its sole write); its
        // commit, once a tracer is installed, stages it (recording events), then waits for B.
        Thread.detachNewThreadLike {
            bHolding.wait()
            batch {
                x.value = 1
                aWrote.signal()
                aGo.wait()
            }
            leftPending.append(_graph.withLock { _ThreadContext.current.pendingTraces.count })
            withTracer(later) { y.value = 5 }
            leftPending.append(_graph.withLock { _ThreadContext.current.pendingTraces.count })
            aDone.signal()
        }
        aWrote.wait()
        withTracer(TraceRecorder()) {
            aGo.signal()
            // Until A's commit waits for B (bounded: A waits as soon as it takes the lock).
            var spins = 0
            while _graph.lock.waitersForTesting == 0, spins < 10_000_000 {
                sched_yield()
                spins += 1
            }
            bGo.signal()
            aDone.wait()
        }
        #expect(x.value == 1)
        #expect(leftPending.all == [0, 0])
        #expect(later.lines == ["write 'review.wait.y': 0 → 5"])
    }

    /// The values a named reaction keeps for `whyDidThisRun()` are those its run read: a write
    /// another thread makes while the run's body runs is the change of the next run, whose old
    /// value (the one the run read) is not kept, so it is listed with its new value only, not
    /// as its new value twice.
    @Test("whyDidThisRun after a write made by another thread during the previous run")
    func whyAfterAWriteDuringTheRun() {
        let x = Stored(0, name: "review.why.x")
        let inRun = DispatchSemaphoreLike(), written = DispatchSemaphoreLike()
        let reasons = Recorder<[String]>()
        let reaction = observe(named: "review.why") {
            let value = x.value
            reasons.append(whyDidThisRun().map(\.description))
            if value == 1 {
                inRun.signal()
                written.wait()
            }
        }
        Thread.detachNewThreadLike {
            inRun.wait()
            x.value = 2
            written.signal()
        }
        x.value = 1
        #expect(x.value == 2)
        #expect(
            reasons.all == [
                [],
                ["'review.why.x' 0 → 1"],
                ["'review.why.x' → 2"],
            ])
        withExtendedLifetime(reaction) {}
    }

    /// A `withTracer` scope opened by a derivation, which runs with the graph's lock held: the
    /// events of its body are delivered once the lock is released, after the scope ended, and
    /// still belong to it.
    @Test("a withTracer scope inside a derivation receives the evaluations it caused")
    func scopeInsideADerivation() {
        let source = Stored(1, name: "review.derivation.source")
        let inner = Computed(name: "review.derivation.inner") { source.value * 2 }
        let recorder = TraceRecorder()
        let outer = Computed(name: "review.derivation.outer") { withTracer(recorder) { inner.value } + 1 }
        #expect(outer.value == 3)
        #expect(recorder.lines == ["evaluate 'review.derivation.inner': changed"])
    }

    /// A tracer that opens a `withTracer` scope of its own while it is called, and reads a
    /// Ripple value in it: the events of that read are delivered after the tracer returns (the
    /// delivery in progress goes on with them), and still belong to the scope it opened.
    @Test("a withTracer scope opened by a tracer while it is called receives its events")
    func scopeOpenedByATracer() {
        let source = Stored(1, name: "review.reentrant.source")
        let doubled = Computed(name: "review.reentrant.doubled") { source.value * 2 }
        let inner = TraceRecorder()
        let reentrant = CallbackTracer { event in
            guard event.node == "'review.reentrant.source'" else { return }
            withTracer(inner) { _ = doubled.value }
        }
        withTracer(reentrant) { source.value = 2 }
        #expect(inner.lines == ["evaluate 'review.reentrant.doubled': changed"])
    }

    /// A commit made by a reaction (a store's subscriber that commits): its writes are queued
    /// after the current round, and the reactions they wake run in the rounds that follow. The
    /// commit is traced after them, naming them, as a commit made outside a reaction is.
    @Test("a commit made inside a reaction names the reactions its queued writes woke")
    func commitInsideAReaction() {
        let trigger = Stored(0, name: "review.commit.trigger")
        let target = Stored(0, name: "review.commit.target")
        let seen = observe(named: "review.commit.seen") { _ = target.value }
        let committer = observe(named: "review.commit.committer") {
            let value = trigger.value
            if value > 0 { traceCommit(of: "review.store", transaction: "copy") { target.value = value } }
        }
        let recorder = TraceRecorder()
        withTracer(recorder) { trigger.value = 1 }
        #expect(target.value == 1)
        #expect(
            recorder.lines == [
                "write 'review.commit.trigger': 0 → 1",
                "run 'review.commit.committer': 'review.commit.trigger' 0 → 1",
                "batch start",
                "write 'review.commit.target': 0 → 1",
                "batch end",
                "run 'review.commit.seen': 'review.commit.target' 0 → 1",
                "commit review.store copy: woke 'review.commit.seen'",
            ])
        withExtendedLifetime((seen, committer)) {}
    }

    /// The steps that trace a commit made inside a reaction are queued with its writes, but
    /// are not rounds: a delivery of 40 % of the runaway limit in commits, each made by the
    /// run its previous commit triggered, ends normally with a tracer as without one.
    @Test("commits made inside reactions count toward the runaway limit as without a tracer")
    func commitsInsideReactionsKeepTheRunawayLimit() async {
        await #expect(processExitsWith: .success) {
            let commits = _Graph.maximumRounds * 4 / 10
            let counter = Stored(0, name: "review.rounds.counter")
            let committer = observe(named: "review.rounds.committer") {
                let value = counter.value
                if value > 0, value < commits {
                    traceCommit(of: "review.store", transaction: "next") { counter.value = value + 1 }
                }
            }
            let recorder = TraceRecorder()
            withTracer(recorder) { counter.value = 1 }
            let traced = recorder.events.filter { if case .commit = $0.kind { true } else { false } }.count
            precondition(
                counter.value == commits && traced == commits - 1, "counter \(counter.value), commits traced \(traced)")
            withExtendedLifetime(committer) {}
        }
    }
}

/// A tracer that hands each event to a closure.
private struct CallbackTracer: GraphTracer {
    let body: @Sendable (TraceEvent) -> Void

    func record(_ event: TraceEvent) { body(event) }
}
