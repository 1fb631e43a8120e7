import RippleStore
import Testing

struct Item: Equatable, Sendable { var title: String }
struct AppState: Equatable, Sendable { var name = ""; var count = 0; var items: [Item] = [] }
enum AppActivity: Sendable { case didSendMessage }

// Swift 6 asks every subclass of an `@unchecked Sendable` class to say so again.
final class AppStore: Store<AppState, AppActivity>, @unchecked Sendable {
    func increment() { commit { $0.count += 1 } }
}

// The other way to give a store its operations: no subclass, no restatement.
typealias CounterStore = Store<AppState, Never>
extension CounterStore {
    func add(_ amount: Int) { commit { $0.count += amount } }
}

final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLockLike()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
}

import Foundation
typealias NSLockLike = NSLock

@Test func extensionOfASpecializedStore() {
    let store = CounterStore(initialState: AppState())
    store.add(2)
    #expect(store.currentState.count == 2)
}

@Suite struct StoreSmokeTests {
    @Test func issueExample() {
        let store = AppStore(initialState: AppState())
        let names = Recorder<String>()
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.name) { name in names.append(name) }
        }
        let count = store.derived(\.count)
        let runs = Recorder<String>()
        let title = Computed { () -> String in
            let t = "\(store.state.name) (\(store.state.count))"
            runs.append(t)
            return t
        }
        let titles = Recorder<String>()
        let observer = observe { titles.append(title.value) }
        store.increment()
        store.commit { $0.name = "Ada" }
        store.commit { $0.items.append(Item(title: "x")) }
        #expect(count.value == 1)
        #expect(names.values == ["", "Ada"])
        #expect(titles.values == [" (0)", " (1)", "Ada (1)"])
        #expect(runs.values == [" (0)", " (1)", "Ada (1)"])
        withExtendedLifetime((subscription, observer)) {}
    }

    @Test func derivedClosureAndKeyPathOverloads() {
        let store = AppStore(initialState: AppState())
        let doubled = store.derived { $0.count * 2 }
        let both = store.derived(from: \.count, \.name) { count, name in "\(name)\(count)" }
        store.increment()
        #expect(doubled.value == 2)
        #expect(both.value == "1")
        let pair = combined(store.derived(\.count), store.derived(\.name))
        #expect(pair.value == (1, ""))
    }
}
