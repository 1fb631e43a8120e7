import Testing
import Ripple
import RippleStore
import RippleTesting

/// A search that runs once typing pauses, against a slow service; a newer search cancels the
/// one in flight.
private struct SearchAsYouType: Reducer {
    struct State: Equatable {
        var query = ""
        var results: [String] = []
    }

    enum Action: Equatable, Sendable {
        case queryChanged(String)
        case search
        case found([String])
    }

    enum ID: Hashable, Sendable { case debounce, search }

    let search: @Sendable (String) async throws -> [String]

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return .send(.search).debounce(id: ID.debounce, for: .milliseconds(300))
        case .search:
            let query = state.query
            let search = search
            return .run { send in await send(.found(try await search(query))) }
                .cancellable(id: ID.search, cancelInFlight: true)
        case .found(let results):
            state.results = results
            return .none
        }
    }
}

/// A search service that answers after `latency` on the test clock and records what it saw.
private final class SearchService: Sendable {
    let clock: TestClock
    let latency: Duration
    let started = TestingBox<[String]>([])
    let cancelled = TestingBox<[String]>([])
    let catalog = ["ripple", "rip current", "ripe", "river"]

    init(clock: TestClock, latency: Duration) {
        self.clock = clock
        self.latency = latency
    }

    func search(_ query: String) async throws -> [String] {
        started.update { $0.append(query) }
        do {
            try await clock.sleep(for: latency)
        } catch {
            cancelled.update { $0.append(query) }
            throw error
        }
        return catalog.filter { $0.hasPrefix(query) }
    }
}

/// Typing to results, driven by the test clock: the debounce, the cancelled in-flight search
/// and the stale answer that never arrives.
@Suite struct SearchAsYouTypeTests {
    @Test func onlyTheLastQuerysResultsArriveAndTheInFlightSearchIsCancelled() async {
        let clock = TestClock()
        let service = SearchService(clock: clock, latency: .seconds(1))
        let store = TestStore(
            reducer: SearchAsYouType(search: { try await service.search($0) }), initialState: .init(), clock: clock)

        // Typing faster than the debounce: no search starts.
        await store.send(.queryChanged("r")) { $0.query = "r" }
        await clock.advance(by: .milliseconds(100))
        await store.send(.queryChanged("ri")) { $0.query = "ri" }
        await clock.advance(by: .milliseconds(100))
        await store.send(.queryChanged("rip")) { $0.query = "rip" }
        await clock.advance(by: .milliseconds(299))
        #expect(store.receivedActions.isEmpty)
        #expect(service.started.value.isEmpty)

        // The pause: one search, for the last query.
        await clock.advance(by: .milliseconds(1))
        await store.receive(.search)
        #expect(service.started.value == ["rip"])

        // Typing again while "rip" is in flight: its answer is due at 1.3 s on the clock.
        await clock.advance(by: .milliseconds(500))
        await store.send(.queryChanged("ripp")) { $0.query = "ripp" }
        await clock.advance(by: .milliseconds(300))
        await store.receive(.search)
        #expect(service.started.value == ["rip", "ripp"])
        #expect(service.cancelled.value == ["rip"])

        // Past the stale search's deadline: nothing from it arrives.
        await clock.advance(by: .milliseconds(500))
        #expect(store.receivedActions.isEmpty)
        await clock.advance(by: .milliseconds(500))
        await store.receive(.found(["ripple"])) { $0.results = ["ripple"] }
        await store.finish()
    }

    @Test func aSlowFirstSearchCannotOverwriteAFasterSecondOne() async {
        let clock = TestClock()
        let latencies = TestingBox<[String: Duration]>(["ri": .seconds(2), "riv": .milliseconds(100)])
        let store = TestStore(
            reducer: SearchAsYouType(search: { query in
                try await clock.sleep(for: latencies.value[query] ?? .zero)
                return ["\(query)-results"]
            }),
            initialState: .init(),
            clock: clock)

        await store.send(.queryChanged("ri")) { $0.query = "ri" }
        await clock.advance(by: .milliseconds(300))
        await store.receive(.search)
        await store.send(.queryChanged("riv")) { $0.query = "riv" }
        await clock.advance(by: .milliseconds(300))
        await store.receive(.search)
        await clock.advance(by: .milliseconds(100))
        await store.receive(.found(["riv-results"])) { $0.results = ["riv-results"] }
        // The first search's deadline passes: it was cancelled, and sends nothing.
        await clock.advance(by: .seconds(3))
        #expect(store.receivedActions.isEmpty)
        #expect(store.state.results == ["riv-results"])
        await store.finish()
    }
}
