/// An event recorded while the graph's lock is held: labels and values, not yet text. It is
/// turned into a ``TraceEvent`` (which calls the values' `description`, user code) once the
/// lock is released, on the same thread.
enum _PendingTrace {
    case write(node: String, old: Any, new: Any)
    case evaluation(node: String, changed: Bool)
    case reactionRun(node: String, changes: [_PendingSourceChange])
    case batchStart
    case batchEnd
    case commit(store: String, transaction: String, woke: [String])
}

/// An event recorded on a thread, with the tracers of the `withTracer` scopes open on that
/// thread when it was recorded: they receive it even if the scope has ended by the time it is
/// delivered (a scope opened while the lock is held, inside a derivation, or by a tracer
/// while it is called, ends before the events of its body are delivered).
struct _RecordedTrace {
    let event: _PendingTrace
    let scoped: [any GraphTracer]
}

/// A changed source of a reaction, with the values as they were recorded.
struct _PendingSourceChange {
    let source: String
    let old: Any?
    let new: Any?

    var formatted: SourceChange {
        SourceChange(source: source, oldValue: old.map(_describe), newValue: new.map(_describe))
    }
}

/// A value as text: its `description` when it has one.
func _describe(_ value: Any) -> String {
    if let value = value as? any CustomStringConvertible { return value.description }
    return String(describing: value)
}

/// The process-wide tracers, behind a lock of their own (never held while one is called).
final class _TracerRegistry: @unchecked Sendable {
    private let lock = _Lock()
    private var tracers: [(id: UInt64, tracer: any GraphTracer)] = []
    private var nextID: UInt64 = 0

    func add(_ tracer: any GraphTracer) -> UInt64 {
        lock.withLock {
            nextID &+= 1
            tracers.append((nextID, tracer))
            return nextID
        }
    }

    func remove(_ id: UInt64) -> Bool {
        lock.withLock {
            guard let index = tracers.firstIndex(where: { $0.id == id }) else { return false }
            tracers.remove(at: index)
            return true
        }
    }

    /// The installed tracers, with their ids.
    var all: [(id: UInt64, tracer: any GraphTracer)] { lock.withLock { tracers } }

    /// Whether the tracer `id` is still installed: checked before each call, so that a tracer
    /// whose uninstallation returned is handed no further event.
    func isInstalled(_ id: UInt64) -> Bool {
        lock.withLock { tracers.contains { $0.id == id } }
    }

    private var threadCount = 0

    /// A number for a thread that traces something for the first time.
    func nextThreadNumber() -> Int {
        lock.withLock {
            threadCount += 1
            return threadCount
        }
    }
}

let _tracers = _TracerRegistry()

extension _Graph {
    /// Counts tracers installed or uninstalled, in `tracingCount` and in the copy a
    /// batch's write reads without the lock (`tracersInstalled`).
    func changeTracingCount(by delta: Int, _ held: borrowing _HeldLock) {
        assertLockHeld()
        tracingCount += delta
        noteTracersInstalled(held)
    }

    /// Installs a process-wide tracer; returns its id.
    func installTracer(_ tracer: any GraphTracer) -> UInt64 {
        let id = _tracers.add(tracer)
        withLock { held in changeTracingCount(by: 1, held) }
        return id
    }

    /// Uninstalls the tracer `id` (once).
    func uninstallTracer(_ id: UInt64) {
        guard _tracers.remove(id) else { return }
        withLock { held in changeTracingCount(by: -1, held) }
    }

    /// Whether any tracer is installed (lock held).
    @inline(__always)
    var isTracing: Bool { tracingCount != 0 }

    /// Records an evaluation: kept out of line, off the evaluation's path.
    @inline(never)
    func traceEvaluation(of node: _Node, changed: Bool, _ held: borrowing _HeldLock) {
        recordTrace(.evaluation(node: node.traceName, changed: changed), held)
    }

    /// Records an event for the calling thread's tracers; they receive it once
    /// the outermost lock is released.
    @inline(never)
    func recordTrace(_ event: _PendingTrace, _ context: _ThreadContext, _ held: borrowing _HeldLock) {
        let locked = state(held)
        assertLockHeld()
        if context.pendingTraces.isEmpty {
            // The thread's first pending event: the next outermost release delivers them (an
            // entry in `releasedUnderLock` sends it down that path).
            locked.pendingTraceThreads += 1
            locked.releasedUnderLock.append(_tombstone.retain())
        }
        context.pendingTraces.append(_RecordedTrace(event: event, scoped: context.scopedTracers))
    }

    /// After this thread waited (`waitForBroadcast`, lock held again): while it waited, another
    /// thread's outermost release may have taken the entry of `releasedUnderLock` that sends
    /// this thread's release down the path that delivers its recorded events (see
    /// `recordTrace`). Puts one back if it has events pending, or they would stay pending, and
    /// so would every event it records after them (they add no entry of their own).
    func rearmTraceDelivery(_ context: _ThreadContext, _ held: borrowing _HeldLock) {
        assertLockHeld()
        if !context.pendingTraces.isEmpty { state(held).releasedUnderLock.append(_tombstone.retain()) }
    }

    /// Records an event on the calling thread, or, on a helper thread of
    /// `refreshOnFreshStack`, on the thread it refreshes for: the helper ends before the
    /// lock is released, and its events are that thread's.
    func recordTrace(_ event: _PendingTrace, _ held: borrowing _HeldLock) {
        if let reader = state(held).helpedReaderContext {
            reader.with { recordTrace(event, $0, held) }
            return
        }
        recordTrace(event, _ThreadContext.current, held)
    }
}

extension _ThreadContext {
    /// Delivers the events recorded on this thread to the tracers (lock released).
    func deliverTraces() {
        guard !isDeliveringTraces else { return }
        isDeliveringTraces = true
        defer { isDeliveringTraces = false }
        while true {
            // Taken under the lock, which guards the count of threads with events.
            let batch = _graph.withLock { held -> [_RecordedTrace] in
                guard !pendingTraces.isEmpty else { return [] }
                let taken = pendingTraces
                pendingTraces = []
                _graph.state(held).pendingTraceThreads -= 1
                return taken
            }
            if batch.isEmpty { return }
            // Events recorded while no tracer is installed any more go nowhere. Each tracer is
            // checked before each call (a tracer may block, and another thread uninstall one
            // meanwhile): once its uninstallation returned, it is handed no further event (a
            // call already made to it may still be running).
            let thread = traceThreadName
            let global = _tracers.all
            for recorded in batch {
                let event = recorded.event.event(thread: thread)
                for (id, tracer) in global where _tracers.isInstalled(id) { tracer.record(event) }
                // The scopes open when it was recorded, which may have ended since.
                for tracer in recorded.scoped { tracer.record(event) }
            }
        }
    }

    /// The thread, as events name it: `main`, or `thread N` (numbered in the order threads
    /// first traced something).
    var traceThreadName: String {
        if _isOnMainActor() || isProcessMainThread { return "main" }
        if traceThreadNumber == 0 { traceThreadNumber = _tracers.nextThreadNumber() }
        return "thread \(traceThreadNumber)"
    }
}

extension _PendingTrace {
    func event(thread: String) -> TraceEvent {
        switch self {
        case .write(let node, let old, let new):
            TraceEvent(kind: .write(old: _describe(old), new: _describe(new)), node: node, thread: thread)
        case .evaluation(let node, let changed):
            TraceEvent(kind: .evaluation(changed: changed), node: node, thread: thread)
        case .reactionRun(let node, let changes):
            TraceEvent(kind: .reactionRun(changes: changes.map(\.formatted)), node: node, thread: thread)
        case .batchStart:
            TraceEvent(kind: .batchStart, node: "batch", thread: thread)
        case .batchEnd:
            TraceEvent(kind: .batchEnd, node: "batch", thread: thread)
        case .commit(let store, let transaction, let woke):
            TraceEvent(kind: .commit(transaction: transaction, woke: woke), node: store, thread: thread)
        }
    }
}

extension _Node {
    /// The node as traces name it: `'name'`, or its kind and where it was created.
    var traceName: String {
        if let name = origin.name { return "'\(name)'" }
        let file = "\(origin.fileID)".split(separator: "/").last.map(String.init) ?? "\(origin.fileID)"
        return "\(kindName)@\(file):\(origin.line)"
    }
}
