import Ripple
import RippleStore
import Testing

@Suite("Store tracing")
struct StoreTracingTests {
    @Test("a commit is traced with its transaction and the reactions it woke; whyDidThisRun names the state")
    func commitTrace() {
        let store = Store<AppState, Never>(initialState: AppState(), name: "app")
        let reasons = Recorder<[String]>()
        let render = observe(named: "render") {
            _ = store.state.count
            reasons.append(whyDidThisRun().map(\.source))
        }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            store.commit("increment") { $0.count += 1 }
        }
        #expect(recorder.commitLines == ["commit app increment: woke 'render'"])
        #expect(recorder.lines.contains { $0.hasPrefix("run 'render': ") })
        #expect(reasons.values.count == 2)
        #expect(reasons.values[1].count == 1)
        withExtendedLifetime(render) {}
    }

    @Test("without a tracer, a commit records nothing")
    func noTracer() {
        let store = Store<AppState, Never>(initialState: AppState(), name: "quiet")
        let recorder = TraceRecorder()
        store.commit { $0.count += 1 }
        #expect(recorder.events.isEmpty)
    }
}
