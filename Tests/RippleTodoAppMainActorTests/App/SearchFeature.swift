import RippleStore

/// A search field whose query is looked up once the user stops typing.
struct SearchFeature: Reducer {
    struct State: Equatable {
        var query = ""
        var results: [String] = []
    }

    enum Action: Equatable {
        case queryChanged(String)
        case search
        case found([String])
    }

    let catalog: [String]

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return .send(.search).debounce(id: "search", for: .milliseconds(300))
        case .search:
            let query = state.query
            let catalog = catalog
            return .run { send in
                await send(.found(catalog.filter { $0.lowercased().contains(query.lowercased()) }))
            }
        case .found(let results):
            state.results = results
            return .none
        }
    }
}
