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

    struct Rows: Equatable, Sendable {
        var values = [0, 0]
    }

    /// A slice is named after its store and key path when a trace first names it: the name was
    /// made with every slice (75 us for a subscript's description on Linux, against a few for
    /// the slice), `count-instructions.sh --store createDerived` 495 571 -> 43 468 instructions.
    @Test("a key-path slice is named after the store and the key path in traces")
    func sliceNames() {
        let store = Store<Rows, Never>(initialState: Rows(), name: "rows")
        let second = store.derived(\.values[1])
        let seen = Recorder<Int>()
        let reaction = observe(named: "row") { seen.append(second.value) }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            store.commit { $0.values[1] = 5 }
        }
        #expect(seen.values == [0, 5])
        let name = "'rows\(\Rows.values[1] as AnyKeyPath)'"
        #expect(recorder.lines.contains { $0.contains(name) })
        withExtendedLifetime(reaction) {}
    }

    @Test("a main-actor store's key-path slice is named after the store and the key path in traces")
    @MainActor
    func mainActorSliceNames() {
        let store = MainActorStore<Rows, Never>(initialState: Rows(), name: "rows")
        let second = store.derived(\.values[1])
        let seen = Recorder<Int>()
        let reaction = observe(named: "row") { seen.append(MainActor.assumeIsolated { second.value }) }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            store.commit { $0.values[1] = 5 }
        }
        #expect(seen.values == [0, 5])
        let name = "'rows\(\Rows.values[1] as AnyKeyPath)'"
        #expect(recorder.lines.contains { $0.contains(name) })
        withExtendedLifetime(reaction) {}
    }
}
