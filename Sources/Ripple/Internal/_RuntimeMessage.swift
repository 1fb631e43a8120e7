#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Where runtime messages go (not failures: the program goes on): standard error, or the sink
/// a test installed with `_withRuntimeMessages`.
enum _RuntimeMessages {
    /// The sinks tests installed, innermost last.
    private static let sinks = _Locked<[@Sendable (String) -> Void]>([])

    /// Reports `message`, prefixed with "Ripple: ", to the innermost sink, else to standard
    /// error. Called with no lock of the graph held.
    static func report(_ message: String) {
        let sink = sinks.withLock { $0.last }
        if let sink {
            sink(message)
            return
        }
        let line = "Ripple: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    static func push(_ sink: @escaping @Sendable (String) -> Void) { sinks.withLock { $0.append(sink) } }
    static func pop() { sinks.withLock { _ = $0.removeLast() } }
}

/// Runs `body` with Ripple's runtime messages sent to `sink` (for tests): process-wide, so tests
/// that use it must not overlap with other code that reports.
func _withRuntimeMessages<R>(_ sink: @escaping @Sendable (String) -> Void, _ body: () throws -> R) rethrows -> R {
    _RuntimeMessages.push(sink)
    defer { _RuntimeMessages.pop() }
    return try body()
}
