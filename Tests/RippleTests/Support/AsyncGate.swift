@testable import Ripple

/// Answers an async operation's requests when a test says so: each request waits for its
/// query's answer, so a test orders completions without sleeping.
///
/// `cooperative`: a cancelled request throws `CancellationError` at once (as `Task.sleep` and
/// `URLSession` do). Otherwise it notes the cancellation and keeps waiting (an operation that
/// ignores cancellation: its late answer must still be dropped).
final class AsyncGate: @unchecked Sendable {
    private let lock = _Lock()
    private var waiting: [String: [CheckedContinuation<String, any Error>]] = [:]
    private var startedQueries: [String] = []
    private var cancelledQueries: [String] = []
    let cooperative: Bool

    init(cooperative: Bool = false) { self.cooperative = cooperative }

    /// The queries asked for, in order.
    var started: [String] { lock.withLock { startedQueries } }
    /// The queries whose requests were cancelled, in order.
    var cancelled: [String] { lock.withLock { cancelledQueries } }

    /// Waits for the answer to `query`.
    func answer(for query: String) async throws -> String {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                let cancelNow = lock.withLock { () -> Bool in
                    startedQueries.append(query)
                    if cooperative && Task.isCancelled { return true }
                    waiting[query, default: []].append(continuation)
                    return false
                }
                if cancelNow { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuations = lock.withLock { () -> [CheckedContinuation<String, any Error>] in
                cancelledQueries.append(query)
                return cooperative ? waiting.removeValue(forKey: query) ?? [] : []
            }
            for continuation in continuations { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Resumes the oldest request waiting for `query`.
    func resume(_ query: String, with result: Result<String, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<String, any Error>? in
            guard var list = waiting[query], !list.isEmpty else { return nil }
            let first = list.removeFirst()
            waiting[query] = list.isEmpty ? nil : list
            return first
        }
        continuation?.resume(with: result)
    }

    /// Ends every request still waiting, so that no continuation leaks at the end of a test.
    func resumeAll() {
        let all = lock.withLock { () -> [CheckedContinuation<String, any Error>] in
            defer { waiting = [:] }
            return waiting.values.flatMap { $0 }
        }
        for continuation in all { continuation.resume(throwing: CancellationError()) }
    }
}

/// Yields until `condition` holds, at most `limit` times (bounded by iterations, not time).
func eventually(
    isolation: isolated (any Actor)? = #isolation, _ limit: Int = 100_000, _ condition: () -> Bool
) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// A phase as a short string, for expectations.
func describe(_ phase: AsyncPhase<String>) -> String {
    switch phase {
    case .idle: "idle"
    case .loading(let latest): "loading \(latest ?? "-")"
    case .value(let value): "value \(value)"
    case .failure(let error, let latest): "failure(\(type(of: error))) \(latest ?? "-")"
    }
}
