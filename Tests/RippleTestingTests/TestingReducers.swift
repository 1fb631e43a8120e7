import Ripple
import RippleStore
import RippleTesting

/// The counter, with its API injected.
struct Counter: Reducer {
    struct State: Equatable { var number = 0 }
    enum Action: Equatable { case increment, decrement, twice, load, loaded(Int), cancelLoad }

    var fetch: @Sendable () async throws -> Int = { 42 }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.number += 1; return .none
        case .decrement: state.number -= 1; return .none
        case .twice: return .concat(.send(.increment), .send(.increment))
        case .load:
            let fetch = fetch
            return .run { send in await send(.loaded(try await fetch())) }.cancellable(id: "load")
        case .loaded(let n): state.number = n; return .none
        case .cancelLoad: return .cancel(id: "load")
        }
    }
}

/// A reducer whose effects are given by the test: `.start(n)` returns `effects(n)`, and every
/// `.log(x)` appends `x` to the state.
struct Scripted: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable, Sendable { case start(Int), log(String) }

    let effects: @Sendable (Int) -> Effect<Action>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start(let n): return effects(n)
        case .log(let entry): state.log.append(entry); return .none
        }
    }
}

struct TestingFailure: Error, Equatable {}

/// A value an effect or a callback fills in, read by the test.
final class TestingBox<Value: Sendable>: @unchecked Sendable {
    private let lock = _Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
