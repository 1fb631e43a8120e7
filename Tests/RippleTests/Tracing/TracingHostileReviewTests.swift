@testable import Ripple
import Testing

/// Tracing where a hostile review looked for bugs: a `withTracer` scope opened inside a
/// reaction, a commit traced inside a batch, an equal write inside a batch, and a tracer
/// uninstalled while another thread delivers to it.
@Suite struct TracingHostileReviewTests {
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
        #expect(recorder.lines == [
            "batch start",
            "write 'hA.scope.target': 0 → 1",
            "batch end",
            "run 'hA.scope.seen': 'hA.scope.target' 0 → 1",
        ])
        withExtendedLifetime((seen, writer)) {}
    }
}
