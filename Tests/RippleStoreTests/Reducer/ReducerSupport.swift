import Foundation
import RippleStore

/// The counter, plus a text field, a subscriber-driven action and a probe for
/// re-entrant reduction.
struct RDCounter: Reducer {
    struct State: Equatable {
        var number = 0
        var text = ""
        var log: [String] = []
    }

    enum Action: Equatable, Sendable {
        case increment, decrement, twice, load, loaded(Int)
        case setText(String)
        case log(String)
        case wait(Int)
    }

    var fetch: @Sendable () async throws -> Int = { 42 }
    /// Counts reductions in progress, to catch a re-entrant one.
    var probe = RDProbe()

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        probe.enter()
        defer { probe.leave() }
        switch action {
        case .increment: state.number += 1; return .none
        case .decrement: state.number -= 1; return .none
        case .twice: return .concat(.send(.increment), .send(.increment))
        case .load:
            let fetch = fetch
            return .run { send in await send(.loaded(try await fetch())) }.cancellable(id: "load")
        case .loaded(let n): state.number = n; return .none
        case .setText(let text): state.text = text; return .none
        case .log(let entry): state.log.append(entry); return .none
        case .wait(let id): probe.blockIfAsked(id); state.log.append("wait \(id)"); return .none
        }
    }
}

/// Records how deep reductions nest (never more than 1 when nothing re-enters), and can hold a
/// reduction until the test releases it.
final class RDProbe: @unchecked Sendable {
    private let condition = NSCondition()
    private var depth = 0
    private(set) var maximumDepth = 0
    private var blocked: Set<Int> = []
    private var entered: Set<Int> = []

    func enter() {
        condition.lock(); defer { condition.unlock() }
        depth += 1
        maximumDepth = max(maximumDepth, depth)
    }

    func leave() {
        condition.lock(); defer { condition.unlock() }
        depth -= 1
    }

    /// Makes the reduction of `.wait(id)` block until ``release(_:)``.
    func hold(_ id: Int) {
        condition.lock(); defer { condition.unlock() }
        blocked.insert(id)
    }

    func release(_ id: Int) {
        condition.lock(); defer { condition.unlock() }
        blocked.remove(id)
        condition.broadcast()
    }

    /// Waits until the reduction of `.wait(id)` has started.
    func waitUntilEntered(_ id: Int) {
        condition.lock(); defer { condition.unlock() }
        while !entered.contains(id) { condition.wait() }
    }

    func blockIfAsked(_ id: Int) {
        condition.lock(); defer { condition.unlock() }
        entered.insert(id)
        condition.broadcast()
        while blocked.contains(id) { condition.wait() }
    }
}

/// A thread-safe value for tests of this folder.
final class RDBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// Yields until `condition` holds, at most `limit` times; returns whether it held.
func rdEventually(isolation: isolated (any Actor)? = #isolation, _ limit: Int = 100_000, _ condition: () -> Bool) async
    -> Bool
{
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
