@testable import Ripple
import Testing

/// Tracing scopes and batches: a `withTracer` scope opened inside a
/// reaction, a commit traced inside a batch, an equal write inside a batch, and a tracer
/// uninstalled while another thread delivers to it.
@Suite struct TracingScopesAndBatchesTests {
    /// A reaction's writes are queued and applied after its body, after a `withTracer` scope
    /// opened in the body has ended: the scope still receives them, and the reactions they run.
    @Test("a withTracer scope inside a reaction receives the writes its body queued")
    func scopeInsideAReaction() {
        let trigger = Stored(0, name: "hA.scope.trigger")
        let target = Stored(0, name: "hA.scope.target")
        let recorder = TraceRecorder()
        let seen = observe(named: "hA.scope.seen") { _ = target.value }
        let writer = observe(named: "hA.scope.writer") {
            let value = trigger.value
            if value > 0 { withTracer(recorder) { target.value = value } }
        }
        trigger.value = 1
        #expect(target.value == 1)
        #expect(
            recorder.lines == [
                "batch start",
                "write 'hA.scope.target': 0 → 1",
                "batch end",
                "run 'hA.scope.seen': 'hA.scope.target' 0 → 1",
            ])
        withExtendedLifetime((seen, writer)) {}
    }

    /// A commit inside a batch: its writes are applied, and the reactions they wake run, when
    /// the batch ends. The commit is traced then, naming them, as outside a batch.
    @Test("a commit made inside a batch names the reactions the batch's end ran")
    func commitInsideABatch() {
        let target = Stored(0, name: "hA.commit.target")
        let seen = observe(named: "hA.commit.seen") { _ = target.value }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            batch { traceCommit(of: "hA.store", transaction: "set") { target.value = 1 } }
        }
        #expect(
            recorder.lines == [
                "batch start",
                "write 'hA.commit.target': 0 → 1",
                "batch end",
                "run 'hA.commit.seen': 'hA.commit.target' 0 → 1",
                "commit hA.store set: woke 'hA.commit.seen'",
            ])
        withExtendedLifetime(seen) {}
    }

    /// The same inside a reaction, where the batch's writes are queued as one unit.
    @Test("a commit made inside a batch inside a reaction names the reactions it woke")
    func commitInsideABatchInsideAReaction() {
        let trigger = Stored(0, name: "hA.commitR.trigger")
        let target = Stored(0, name: "hA.commitR.target")
        let seen = observe(named: "hA.commitR.seen") { _ = target.value }
        let committer = observe(named: "hA.commitR.committer") {
            let value = trigger.value
            if value > 0 { batch { traceCommit(of: "hA.store", transaction: "copy") { target.value = value } } }
        }
        let recorder = TraceRecorder()
        withTracer(recorder) { trigger.value = 1 }
        #expect(target.value == 1)
        #expect(
            recorder.lines == [
                "write 'hA.commitR.trigger': 0 → 1",
                "run 'hA.commitR.committer': 'hA.commitR.trigger' 0 → 1",
                "batch start",
                "write 'hA.commitR.target': 0 → 1",
                "batch end",
                "run 'hA.commitR.seen': 'hA.commitR.target' 0 → 1",
                "commit hA.store copy: woke 'hA.commitR.seen'",
            ])
        withExtendedLifetime((seen, committer)) {}
    }

    /// Outside a batch, a write of a value equal to the current one is not traced: inside a
    /// batch neither (compared with the value in the batch's view).
    @Test("an equal write inside a batch is not traced, as outside one")
    func equalWriteInsideABatch() {
        let count = Stored(1, name: "hA.equal.count")
        let other = Stored(0, name: "hA.equal.other")
        let recorder = TraceRecorder()
        withTracer(recorder) {
            count.value = 1
            batch {
                count.value = 1
                other.value = 5
                other.value = 5
            }
        }
        #expect(
            recorder.lines == [
                "batch start",
                "write 'hA.equal.other': 0 → 5",
                "batch end",
            ])
    }

    /// A process-wide tracer uninstalled while another thread delivers events to it: once
    /// `cancel()` returned, no other event is handed to it (the call in progress ends).
    @Test("an uninstalled tracer is handed no event after its cancel returned")
    func uninstallDuringDelivery() {
        let source = Stored(1, name: "hA.uninstall.source")
        let inner = Computed(name: "hA.uninstall.inner") { source.value + 1 }
        let outer = Computed(name: "hA.uninstall.outer") { inner.value + 1 }
        let firstEvent = DispatchSemaphoreLike(), cancelled = DispatchSemaphoreLike()
        let tracer = UninstallProbe(firstEvent: firstEvent, cancelled: cancelled)
        let subscription = installTracer(tracer)
        runOnThreads(2) { thread in
            if thread == 0 {
                // Both evaluations are recorded under one hold of the lock, and delivered
                // together: the tracer blocks in the first until the other thread cancelled.
                #expect(outer.value == 3)
            } else {
                firstEvent.wait()
                subscription.cancel()
                tracer.markUninstalled()
                cancelled.signal()
            }
        }
        #expect(tracer.before == ["evaluate 'hA.uninstall.inner': changed"])
        #expect(tracer.after == [])
    }
}

/// A tracer that blocks in the first event of its test until that test uninstalled it, and
/// sorts its test's events by whether they came before or after.
private final class UninstallProbe: GraphTracer, @unchecked Sendable {
    private let lock = _Lock()
    private var uninstalled = false
    private var seenFirst = false
    private var recordedBefore: [String] = []
    private var recordedAfter: [String] = []
    let firstEvent: DispatchSemaphoreLike
    let cancelled: DispatchSemaphoreLike

    init(firstEvent: DispatchSemaphoreLike, cancelled: DispatchSemaphoreLike) {
        self.firstEvent = firstEvent
        self.cancelled = cancelled
    }

    func record(_ event: TraceEvent) {
        // Other tests' events, on other threads, are not this test's.
        guard event.node.hasPrefix("'hA.uninstall.") else { return }
        let (first, after) = lock.withLock { () -> (Bool, Bool) in
            defer { seenFirst = true }
            if uninstalled { recordedAfter.append(event.description) } else { recordedBefore.append(event.description) }
            return (!seenFirst, uninstalled)
        }
        if first, !after {
            firstEvent.signal()
            cancelled.wait()
        }
    }

    func markUninstalled() { lock.withLock { uninstalled = true } }
    var before: [String] { lock.withLock { recordedBefore } }
    var after: [String] { lock.withLock { recordedAfter } }
}
