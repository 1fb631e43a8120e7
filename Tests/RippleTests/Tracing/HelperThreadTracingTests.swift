@testable import Ripple
import Testing

/// A first read of a deep chain continues its nested evaluations on helper threads with a
/// fresh stack (`_Graph.refreshOnFreshStack`, Linux only). The events they record belong to
/// the thread that read.
@Suite struct HelperThreadTracingTests {
    /// A chain deep enough that its first read nests past two helper threads.
    static let depth = _Graph.levelsOnReadingThread + _Graph.levelsPerHelper + 100

    @Test("evaluations nested on a helper thread are traced, in order, as the reading thread's")
    func evaluationsOnHelperThreads() {
        let root = Stored(0, name: "root")
        var chain: [Computed<Int>] = []
        var previous = Computed(name: "level 0") { root.value + 1 }
        chain.append(previous)
        for level in 1..<Self.depth {
            let source = previous
            previous = Computed(name: "level \(level)") { source.value + 1 }
            chain.append(previous)
        }
        let recorder = TraceRecorder()
        let value = withTracer(recorder) { previous.value }
        #expect(value == Self.depth)
        #expect(recorder.events.count == Self.depth)
        // The first event out of order, if any (not the whole list: thousands of names).
        let names = recorder.events.map(\.node)
        let firstOutOfOrder = names.indices.first { names[$0] != "'level \($0)'" }
        #expect(firstOutOfOrder == nil)
        #expect(Set(recorder.events.map(\.thread)).count == 1)
        // Nothing left pending on this thread. (Not the graph's count of threads with pending
        // events: tests running in parallel may have some at this moment.)
        #expect(_graph.withLock { _ThreadContext.current.pendingTraces.isEmpty })
        withExtendedLifetime(chain) {}
    }
}
