/// Receives the graph's ``TraceEvent``s: install one process-wide with
/// ``installTracer(_:)``, or for the work of one scope with ``withTracer(_:_:)``.
///
/// `record` is called on the thread that did the work, with no lock held, in order. It must
/// not read or write Ripple values (it would record its own work); what it gets is text.
///
/// ```swift
/// struct PrintTracer: GraphTracer {
///     func record(_ event: TraceEvent) { print("[\(event.thread)] \(event)") }
/// }
/// let tracing = installTracer(PrintTracer())
/// ```
public protocol GraphTracer: Sendable {
    /// Called for each event.
    func record(_ event: TraceEvent)
}

/// A tracer that keeps every event, for tests and for printing a trace.
///
/// ```swift
/// let recorder = TraceRecorder()
/// withTracer(recorder) { isLoggedIn.value = true }
/// print(recorder.lines.joined(separator: "\n"))
/// ```
public final class TraceRecorder: GraphTracer, @unchecked Sendable {
    private let lock = _Lock()
    private var recorded: [TraceEvent] = []

    /// Creates an empty recorder.
    public init() {}

    /// Keeps `event`.
    public func record(_ event: TraceEvent) {
        lock.withLock { recorded.append(event) }
    }

    /// The events so far, in order.
    public var events: [TraceEvent] { lock.withLock { recorded } }

    /// The events so far as lines (``TraceEvent/description``).
    public var lines: [String] { events.map(\.description) }

    /// Forgets the events so far.
    public func removeAll() {
        lock.withLock { recorded.removeAll() }
    }
}

/// Installs `tracer` for the whole process: it receives every event on every thread until
/// the returned subscription is cancelled or released.
///
/// Once the cancellation returns, the tracer is handed no further event. Cancelling does not
/// wait for a call already under way on another thread (as for a reaction's run, see
/// ``Subscription/cancel()``): that call, checked just before the cancellation, may still be
/// running or about to start.
///
/// With no tracer installed, tracing costs nothing measurable (see the Benchmarks README):
/// the graph checks one flag it already holds the lock for.
///
/// - Returns: A subscription that uninstalls the tracer when cancelled or released.
public func installTracer(_ tracer: some GraphTracer) -> Subscription {
    let id = _graph.installTracer(tracer)
    return Subscription { _graph.uninstallTracer(id) }
}

/// Runs `body` with `tracer` receiving the events of the work done on this thread inside it
/// (the writes, the evaluations and the reactions they run here), in addition to the
/// process-wide tracers.
///
/// Events are delivered once Ripple releases the graph: for a scope opened where it holds it
/// (inside a derivation) or while a tracer is being called, after `body` returns.
///
/// Inside a reaction, where writes are queued after the current round, the scope also
/// receives the queued writes `body` made, once they are applied, and the reactions they run
/// in the round that follows.
///
/// ```swift
/// let recorder = TraceRecorder()
/// withTracer(recorder) { loginManager.logIn() }
/// ```
public func withTracer<R>(_ tracer: some GraphTracer, _ body: () throws -> R) rethrows -> R {
    let context = _ThreadContext.current
    let open = {
        context.scopedTracers.append(tracer)
        _graph.withLock { held in _graph.changeTracingCount(by: 1, held) }
    }
    let close = {
        _graph.withLock { held in _graph.changeTracingCount(by: -1, held) }
        context.scopedTracers.removeLast()
    }
    if context.writes.route == .queue {
        // Inside a reaction (a delivery on this thread), the writes of `body` are queued after
        // the current round, to be applied once the scope has ended: the scope opens again in
        // a step queued before them and closes in one queued after them, so that it receives
        // them and the reactions they run (the round between their write and the close). The
        // steps write nothing and are not rounds toward a runaway loop (`writesNothing`).
        _graph.queueWrite(context, writesNothing: true, open)
        defer { _graph.queueWrite(context, writesNothing: true, close) }
        open()
        defer { close() }
        return try body()
    }
    open()
    defer { close() }
    return try body()
}
