import Ripple
import Testing

// Hostile review B, compiled as an app target (main-actor by default): the article's
// `SearchScreen`, with no concurrency annotation.

/// A main-actor service whose requests wait for the test's answers.
final class ArticleSearchAPI {
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

/// The article's screen.
final class ArticleSearchScreen {
    let query = Stored("a")
    let api: ArticleSearchAPI
    lazy var results = MainActorAsyncComputed { [unowned self] in
        try await api.search(query.value)
    }

    init(api: ArticleSearchAPI) { self.api = api }
}

final class ArticleRunLog {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
    func removeAll() { entries.removeAll() }
}

private func reviewEventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

private func reviewDescribe(_ phase: AsyncPhase<String>) -> String {
    switch phase {
    case .idle: "idle"
    case .loading(let latest): "loading \(latest ?? "-")"
    case .value(let value): "value \(value)"
    case .failure(_, let latest): "failure \(latest ?? "-")"
    }
}

@Suite("MainActorAsyncComputed in an app target: the article's screen, readers")
struct MainActorAsyncComputedScreenTests {
    @Test("the article's SearchScreen tracks its query and is released with its screen")
    func searchScreen() async {
        let api = ArticleSearchAPI()
        weak var weakScreen: ArticleSearchScreen?
        weak var weakResults: MainActorAsyncComputed<String>?
        var view: Subscription?
        do {
            let screen = ArticleSearchScreen(api: api)
            weakScreen = screen
            weakResults = screen.results
            view = observeOnMainActor { _ = screen.results.value }
            screen.query.value = "b"
        }
        #expect(api.started == ["a", "b"])
        view?.cancel()
        view = nil
        #expect(weakScreen == nil)
        #expect(weakResults == nil)
        // The suspended requests end after their owner went: nothing touches it.
        api.answer("a", with: "A")
        api.answer("b", with: "B")
        #expect(await reviewEventually { api.returned.count == 2 })
    }

    @Test("a slow stale answer that is dropped does not run main-actor readers again")
    func droppedStaleAnswerRunsNoReader() async {
        let api = ArticleSearchAPI()
        let query = Stored("a")
        let results = MainActorAsyncComputed { try await api.search(query.value) }
        let seen = ArticleRunLog()
        let view = observeOnMainActor { seen.append(reviewDescribe(results.value)) }
        query.value = "b"
        api.answer("b", with: "B")
        #expect(await reviewEventually { results.value.value == "B" })
        let before = seen.entries
        api.answer("a", with: "A")
        #expect(await reviewEventually { api.returned == ["b", "a"] })
        // Let the dropped answer's task end.
        for _ in 0..<100 { await Task.yield() }
        #expect(seen.entries == before, "a dropped answer ran the readers again")
        view.cancel()
    }
}
