import Dispatch
import Ripple
import Testing

@Suite struct TracingTests {
    @Test("a write is traced with the node's name, the old and new values, and the thread")
    func write() {
        let recorder = TraceRecorder()
        let count = Stored(1, name: "count")
        withTracer(recorder) { count.value = 2 }
        #expect(recorder.events.map(\.kind) == [.write(old: "1", new: "2")])
        #expect(recorder.events.first?.node == "'count'")
        #expect(recorder.events.first?.thread.isEmpty == false)
        #expect(recorder.lines == ["write 'count': 1 → 2"])
    }

    @Test("an equal write is not traced; an unnamed node is named by kind, file and line")
    func unnamed() {
        let recorder = TraceRecorder()
        let count = Stored(1)
        withTracer(recorder) {
            count.value = 1
            count.value = 3
        }
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.node.hasPrefix("Stored@TracingTests.swift:") == true)
    }

    @Test("a re-evaluation is traced, with whether its value changed")
    func evaluation() {
        let recorder = TraceRecorder()
        let count = Stored(1, name: "count")
        let isEven = Computed(name: "isEven") { count.value % 2 == 0 }
        let reaction = observe(named: "show") { _ = isEven.value }
        withTracer(recorder) {
            count.value = 2
            count.value = 4
        }
        #expect(
            recorder.lines == [
                "write 'count': 1 → 2",
                "evaluate 'isEven': changed",
                "run 'show': 'isEven' false → true",
                "write 'count': 2 → 4",
                "evaluate 'isEven': unchanged",
            ])
        withExtendedLifetime(reaction) {}
    }

    @Test("a batch is traced with its start, its writes, its end, then the reactions it ran")
    func batches() {
        let recorder = TraceRecorder()
        let first = Stored("Ada", name: "first"), last = Stored("Lovelace", name: "last")
        let reaction = observe(named: "greet") { _ = "\(first.value) \(last.value)" }
        withTracer(recorder) {
            batch {
                first.value = "Grace"
                last.value = "Hopper"
            }
        }
        #expect(
            recorder.lines == [
                "batch start",
                "write 'first': Ada → Grace",
                "write 'last': Lovelace → Hopper",
                "batch end",
                "run 'greet': 'first' Ada → Grace, 'last' Lovelace → Hopper",
            ])
        withExtendedLifetime(reaction) {}
    }

    @Test("whyDidThisRun on a diamond: the direct sources that changed, with old and new values")
    func whyOnADiamond() {
        let a = Stored(1, name: "a")
        let b = Computed(name: "b") { a.value + 1 }
        let c = Computed(name: "c") { a.value * 10 }
        let other = Stored(0, name: "other")
        let reasons = Recorder<[String]>()
        let reaction = observe(named: "sum") {
            _ = b.value + c.value + other.value
            reasons.append(whyDidThisRun().map(\.description))
        }
        a.value = 2
        other.value = 5
        #expect(
            reasons.all == [
                [],
                ["'b' 2 → 3", "'c' 10 → 20"],
                ["'other' 0 → 5"],
            ])
        #expect(whyDidThisRun(named: "sum")?.map(\.description) == ["'other' 0 → 5"])
        withExtendedLifetime(reaction) {}
    }

    @Test("whyDidThisRun after a batch lists every source the batch changed")
    func whyAfterABatch() {
        let x = Stored(1, name: "x"), y = Stored(2, name: "y"), z = Stored(3, name: "z")
        let reasons = Recorder<[SourceChange]>()
        let reaction = observe {
            _ = x.value + y.value + z.value
            reasons.append(whyDidThisRun())
        }
        x.value = 10
        batch {
            x.value = 11
            z.value = 30
        }
        let runs = reasons.all
        #expect(runs.count == 3)
        // The first call starts the recording: nothing before it is known.
        #expect(runs[0].isEmpty)
        // The next run knows what changed, and the new value, but not the old one.
        #expect(runs[1].map(\.description) == ["'x' → 10"])
        // From then on, both values of every source the batch changed.
        #expect(runs[2].map(\.description) == ["'x' 10 → 11", "'z' 3 → 30"])
        withExtendedLifetime(reaction) {}
    }

    @Test("whyDidThisRun outside a reaction stops with a message that says where to call it")
    func whyOutsideAReaction() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = whyDidThisRun()
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("whyDidThisRun() was called outside a reaction"))
    }

    @Test("a scoped tracer hears only its own thread's work; a process-wide one until uninstalled")
    func scopes() {
        let scoped = TraceRecorder()
        let value = Stored(0, name: "scopes.value")
        withTracer(scoped) {
            value.value = 1
            DispatchQueue.global().sync {}
            let other = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                value.value = 2
                other.signal()
            }
            other.wait()
        }
        #expect(scoped.lines == ["write 'scopes.value': 0 → 1"])

        let global = TraceRecorder()
        var installed: Subscription? = installTracer(global)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            value.value = 3
            done.signal()
        }
        done.wait()
        installed = nil
        value.value = 4
        let mine = global.events.filter { $0.node == "'scopes.value'" }
        #expect(mine.map(\.description) == ["write 'scopes.value': 2 → 3"])
        #expect(mine.first?.thread.hasPrefix("thread") == true)
        withExtendedLifetime(installed) {}
    }

    @Test("a tracer that reads nothing is called with no lock held: it may block")
    func tracerMayBlock() {
        let recorder = TraceRecorder()
        let value = Stored(0, name: "blocking")
        let blocking = BlockingTracer()
        withTracer(blocking) {
            withTracer(recorder) { value.value = 1 }
        }
        #expect(blocking.count == 1)
        #expect(recorder.lines == ["write 'blocking': 0 → 1"])
    }

    @Test("the dependency snapshot names sources and observers, as text and as dot")
    func dependencySnapshot() {
        let isLoggedIn = Stored(false, name: "isLoggedIn")
        let hasClickedTip = Stored(false, name: "hasClickedTip")
        let isTipHidden = Computed(name: "isTipHidden") {
            let loggedIn = isLoggedIn.value, clicked = hasClickedTip.value
            return !loggedIn || clicked
        }
        let render = observe(named: "render") { _ = isTipHidden.value }
        let snapshot = isTipHidden.dependencies
        #expect(
            snapshot.description == """
                Computed 'isTipHidden'
                  sources: 'isLoggedIn', 'hasClickedTip'
                  observers: 'render'
                """)
        #expect(snapshot.dot.contains("n1 -> n0;"))
        #expect(snapshot.dot.hasPrefix("digraph Ripple {"))
        #expect(isLoggedIn.dependencies.observers.map(\.name) == ["'isTipHidden'"])
        #expect(isLoggedIn.dependencies.nodes.map(\.name).contains("'render'"))
        #expect(render.dependencies?.sources.map(\.name) == ["'isTipHidden'"])
        render.cancel()
        #expect(render.dependencies == nil)
        #expect(isTipHidden.dependencies.observers.isEmpty)
    }
}

/// A tracer that takes a lock of its own on every event (a deadlock if Ripple held its lock
/// while calling it and the same thread then wrote).
final class BlockingTracer: GraphTracer, @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    private var calls = 0
    func record(_ event: TraceEvent) {
        semaphore.wait()
        calls += 1
        semaphore.signal()
    }
    var count: Int {
        semaphore.wait()
        defer { semaphore.signal() }
        return calls
    }
}
