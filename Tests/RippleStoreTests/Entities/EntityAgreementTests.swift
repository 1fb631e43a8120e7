import Foundation
import Ripple
import RippleStore
import Testing

/// A review found an entity first observed on another thread, while a commit made inside a
/// subscriber waited for its delivery, starting from that commit (`c`) while the store's state
/// still showed the delivered one (`b`): a reader of both, even one `Computed`, saw them
/// disagree ("c/b"), which `Store.entity(_:in:)` promises never happens.
@Suite("An entity and the store's state agree")
struct EntityAgreementTests {
    struct Todo: Identifiable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    struct State: Equatable, Sendable {
        var todos = EntityTable<Todo>()
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        private var committedInside = false
        var value: [String] {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
        /// True the first time only.
        func commitsInside() -> Bool {
            lock.withLock {
                defer { committedInside = true }
                return !committedInside
            }
        }
    }

    @Test("an entity first read on another thread while a commit waits for delivery agrees with the state")
    func observedOnAnotherThreadDuringDelivery() throws {
        var initial = State()
        try initial.todos.insert(Todo(id: 1, title: "a"))
        let store = Store<State, Never>(initialState: initial)
        let seen = Seen()
        let subscription = store.sinkState(dropsFirst: true) { _ in
            guard seen.commitsInside() else { return }
            // Applied at once, delivered after this delivery.
            try? store.commit { try $0.todos.update(1) { $0.title = "c" } }
            let latch = ThreadLatch(1)
            Thread.detachNewThread {
                let entity = store.entity(1, in: \.todos)
                let table = store.derived(\.todos)
                let both = Computed { (entity.value?.title ?? "nil") + "/" + (table.value[1]?.title ?? "nil") }
                seen.value = [
                    "entity=\(entity.value?.title ?? "nil")",
                    "state=\(store.currentState.todos[1]?.title ?? "nil")",
                    "computed=\(both.value)",
                ]
                latch.arrive()
            }
            latch.wait()
        }
        try withExtendedLifetime(subscription) {
            try store.commit { try $0.todos.update(1) { $0.title = "b" } }
        }
        #expect(seen.value == ["entity=b", "state=b", "computed=b/b"])
        #expect(store.entity(1, in: \.todos).value?.title == "c")
    }

    final class Kept: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Derived<Todo?>?
        var entity: Derived<Todo?>? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// Writing the fix showed the other side: an entity's first observer on another thread
    /// while a commit is being published, after that publish listed its hooks, started from
    /// the state published before and was never brought up to date (it showed "a" after the
    /// store had published "b"). A selector, run by the publish, makes that moment.
    @Test("an entity first observed while a commit is being published reaches that commit")
    func observedDuringPublish() throws {
        var initial = State()
        try initial.todos.insert(Todo(id: 1, title: "a"))
        let store = Store<State, Never>(initialState: initial)
        let seen = Seen()
        let kept = Kept()
        let title = store.select { state -> String in
            let title = state.todos[1]?.title ?? "nil"
            if title == "b", seen.commitsInside() {
                let latch = ThreadLatch(1)
                Thread.detachNewThread {
                    let entity = store.entity(1, in: \.todos)
                    _ = entity.value
                    kept.entity = entity
                    latch.arrive()
                }
                latch.wait()
            }
            return title
        }
        let subscription = title.sinkValue { _ in }
        try store.commit { try $0.todos.update(1) { $0.title = "b" } }
        #expect(store.currentState.todos[1]?.title == "b")
        #expect(kept.entity?.value?.title == "b")
        withExtendedLifetime(subscription) {}
    }

    @Test("an entity observed on many threads while commits publish ends on the latest value")
    func observedWhileCommitting() throws {
        for round in 0..<50 {
            var initial = State()
            try initial.todos.insert(Todo(id: 1, title: "0"))
            let store = Store<State, Never>(initialState: initial)
            let kept = NSLock()
            nonisolated(unsafe) var observed: [Derived<Todo?>] = []
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 1...20 { try? store.commit { try $0.todos.update(1) { $0.title = "\(value)" } } }
                } else {
                    for _ in 0..<20 {
                        let entity = store.entity(1, in: \.todos)
                        _ = entity.value
                        kept.withLock { observed.append(entity) }
                    }
                }
            }
            let stale = kept.withLock { observed.filter { $0.value?.title != "20" }.count }
            #expect(stale == 0, "round \(round): \(stale) entities did not reach the last commit")
        }
    }
}
