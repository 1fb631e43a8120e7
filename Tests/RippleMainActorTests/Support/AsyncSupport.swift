import Ripple

// Helpers of the async tests, compiled with main-actor default isolation (see Package.swift):
// the service and the log are on the main actor without saying so.

/// A main-actor search service whose requests wait for the test's answers: a test orders
/// completions with continuations, without sleeping.
final class SearchService {
    private var waiting: [String: CheckedContinuation<String, any Error>] = [:]
    private(set) var started: [String] = []
    private(set) var returned: [String] = []

    func search(_ query: String) async throws -> String {
        started.append(query)
        let answer = try await withCheckedThrowingContinuation { waiting[query] = $0 }
        returned.append(query)
        return answer
    }

    func answer(_ query: String, with answer: String) {
        waiting.removeValue(forKey: query)?.resume(returning: answer)
    }
}

/// A log kept on the main actor.
final class Log {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
    func removeAll() { entries.removeAll() }
}

/// Yields until `condition` holds, at most `limit` times (bounded by iterations, not time).
func eventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

func describe(_ phase: AsyncPhase<String>) -> String {
    switch phase {
    case .idle: "idle"
    case .loading(let latest): "loading \(latest ?? "-")"
    case .value(let value): "value \(value)"
    case .failure(_, let latest): "failure \(latest ?? "-")"
    }
}
