import Ripple
import Testing

// Compiled as an app target (main-actor by default): the article's `SearchScreen`, with no
// concurrency annotation.

/// The article's screen.
final class ArticleSearchScreen {
    let query = Stored("a")
    let api: SearchService
    lazy var results = MainActorAsyncComputed { [unowned self] in
        try await api.search(query.value)
    }

    init(api: SearchService) { self.api = api }
}

@Suite("MainActorAsyncComputed in an app target: the article's screen, readers")
struct MainActorAsyncComputedScreenTests {
    @Test("the article's SearchScreen tracks its query and is released with its screen")
    func searchScreen() async {
        let api = SearchService()
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
        #expect(await eventually { api.returned.count == 2 })
    }

    @Test("a slow stale answer that is dropped does not run main-actor readers again")
    func droppedStaleAnswerRunsNoReader() async {
        let api = SearchService()
        let query = Stored("a")
        let results = MainActorAsyncComputed { try await api.search(query.value) }
        let seen = Log()
        let view = observeOnMainActor { seen.append(describe(results.value)) }
        query.value = "b"
        api.answer("b", with: "B")
        #expect(await eventually { results.value.value == "B" })
        let before = seen.entries
        api.answer("a", with: "A")
        #expect(await eventually { api.returned == ["b", "a"] })
        // Let the dropped answer's task end.
        for _ in 0..<100 { await Task.yield() }
        #expect(seen.entries == before, "a dropped answer ran the readers again")
        view.cancel()
    }
}
