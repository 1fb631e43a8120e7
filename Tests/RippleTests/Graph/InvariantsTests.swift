import Testing
@testable import Ripple
import _RippleRef

#if RIPPLE_INVARIANTS
@Suite struct InvariantsTests {
    @Test("a graph function that needs the lock, called without it, stops with a message naming it")
    func lockAssertion() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                // A token made without taking the lock: the types cannot tell, the check can.
                let forged = _HeldLock()
                _ = _graph.beginEvaluation(Computed { 1 }.node, forged)
                forged.endWithoutReleasing()
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("internal invariant: beginEvaluation(_:_:) needs the graph's lock"))
    }

    @Test("releasing the lock while a derivation is still running stops with a message naming it")
    func unlockDuringEvaluation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let computed = Computed(name: "inProgress") { 1 }
                let node = computed.node
                _graph.withLock { held in _graph.state(held).evaluatingRef = _Ref(node) }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("internal invariant: the graph's lock released while"))
        #expect(message.contains("inProgress"))
    }

    @Test("with the lock held, the same call passes the check")
    func lockHeld() {
        let computed = Computed { 1 }
        let node = computed.node
        _graph.withLock { held in
            let interrupted = _graph.beginEvaluation(node, held)
            _graph.endEvaluation(node, resuming: interrupted, held)
        }
    }
}
#endif
