import Ripple
@testable import RippleStore
import Testing

/// A binding's and an assignee's commits are named after the key path they write, described
/// only when the name is read: a key path's description cost 25 739 instructions per binding
/// write of `\.count` and 462 409 of `\.values[0]` (`count-instructions.sh --store binding
/// bindingElement`), where the commit itself costs about 2 300.
@Suite("Transaction names")
struct TransactionNameTests {
    struct Row: Equatable, Sendable {
        var count = 0
        var values = [0, 0]
    }

    final class Calls: @unchecked Sendable {
        var count = 0
    }

    @Test("a described name is made when it is read, never before")
    func describedWhenRead() {
        let calls = Calls()
        let transaction = Transaction(
            describedBy: {
                calls.count += 1
                return "binding \\.count"
            }, file: #fileID, line: #line)
        let copy = transaction
        #expect(calls.count == 0)
        #expect(transaction.name == "binding \\.count")
        #expect(copy.name == "binding \\.count")
        #expect(transaction.description == "binding \\.count")
        #expect(calls.count == 3)
    }

    @Test("a key path's name is its prefix and its description")
    func keyPathName() {
        let transaction = Transaction("assign", describing: \Row.values[1], file: #fileID, line: #line)
        #expect(transaction.name == "assign \(\Row.values[1] as AnyKeyPath)")
    }

    @Test("a name set replaces the described one, nil clears it, and keyed values stay")
    func setNameReplacesDescribed() {
        enum Origin: TransactionKey {
            static let defaultValue = ""
        }
        var transaction = Transaction(describedBy: { "assign \\.count" }, file: #fileID, line: #line)
        transaction[Origin.self] = "pull to refresh"
        #expect(transaction.name == "assign \\.count")
        transaction.name = "renamed"
        #expect(transaction.name == "renamed")
        #expect(transaction[Origin.self] == "pull to refresh")
        transaction.name = nil
        #expect(transaction.name == nil)
        #expect(transaction[Origin.self] == "pull to refresh")
        #expect(transaction.description.hasPrefix("commit at "))
    }

    @Test("a binding's commit is named after its key path, a subscript's too")
    func bindingNames() {
        let store = Store<Row, Never>(initialState: Row())
        let names = Recorder<String>()
        let sink = store.sinkState(dropsFirst: true) { names.append($0.transaction.name ?? "") }
        store.binding(\.count).value = 1
        store.binding(\.values[1]).value = 2
        let expected = ["binding \(\Row.count as AnyKeyPath)", "binding \(\Row.values[1] as AnyKeyPath)"]
        #expect(names.values == expected)
        _ = sink
    }

    @Test("an assignee's commit is named after its key path")
    func assigneeNames() {
        let store = Store<Row, Never>(initialState: Row())
        let names = Recorder<String>()
        let sink = store.sinkState(dropsFirst: true) { names.append($0.transaction.name ?? "") }
        let setCount: @Sendable (Int) -> Void = store.assignee(\.count)
        setCount(3)
        #expect(names.values == ["assign \(\Row.count as AnyKeyPath)"])
        _ = sink
    }

    @Test("a main-actor store's binding and assignee name their commits after the key path")
    @MainActor
    func mainActorNames() {
        let store = MainActorStore<Row, Never>(initialState: Row())
        var names: [String] = []
        let sink = store.sinkState(dropsFirst: true) { names.append($0.transaction.name ?? "") }
        store.binding(\.values[0]).value = 4
        let assign = store.assignee(\.count)
        assign(Changes(previous: 0, current: 5, version: 1))
        #expect(names == ["binding \(\Row.values[0] as AnyKeyPath)", "assign \(\Row.count as AnyKeyPath)"])
        _ = sink
    }

    /// A main-actor reducer's action may not be `Sendable`: its commit is named after it on the
    /// main actor, when the name is read. Named at once, a trivial `send` cost 16 056
    /// instructions, 7 400 of them describing the action (`count-instructions.sh --store mainSend`).
    struct Counter: Reducer {
        enum Action { case increment, rename(String) }
        func reduce(into state: inout Row, action: Action) -> Effect<Action> {
            switch action {
            case .increment: state.count += 1
            case .rename: state.values.append(0)
            }
            return .none
        }
    }

    @Test("a main-actor reducer's commit is named after its action on the main actor only")
    @MainActor
    func mainActorSendNames() async {
        let store = MainActorReducerStore(reducer: Counter(), initialState: Row())
        var transactions: [Transaction] = []
        let sink = store.sinkState(dropsFirst: true) { transactions.append($0.transaction) }
        store.send(.increment)
        store.send(.rename("a"))
        #expect(transactions.count == 2)
        #expect(transactions.map(\.name) == ["send(increment)", "send(rename(\"a\"))"])
        #expect(transactions[1].description == "send(rename(\"a\"))")
        // Read off the main actor: the action is not touched there.
        let second = transactions[1]
        #expect(await Task.detached { second.name }.value == _DescribedName.offMainActor)
        #expect(second.name == "send(rename(\"a\"))")
        _ = sink
    }
}

/// A review found an optional-valued key that was never set reading `nil`, not its default:
/// `as? Key.Value ?? default` made `.some(nil)` of the missing value.
@Suite("Transaction keys")
struct TransactionKeyTests {
    enum Origin: TransactionKey {
        static let defaultValue: String? = "app"
    }

    @Test("an optional-valued key never set reads its default; one set to nil reads nil")
    func optionalKeyDefault() {
        var transaction = Transaction(name: "t")
        #expect(transaction[Origin.self] == "app")
        transaction[Origin.self] = "sync"
        #expect(transaction[Origin.self] == "sync")
        transaction[Origin.self] = nil
        #expect(transaction[Origin.self] == nil)
    }
}
