import Foundation
import Testing

@testable import RippleStore

/// Deliveries that arrive late or are cancelled midway: an entity observer and a late batch,
/// an activity subscriber cancelled during a delivery.
@Suite struct StoreLateDeliveryTests {
    /// A commit made inside a `batch` is applied when the batch ends. The store's state node
    /// drops it then if a later commit (from another thread) was published meanwhile; an
    /// entity observer must drop it too, not go back to the batch's older value.
    @Test("an entity observer is not set back by a commit applied late by a batch")
    func entityObserverIsNotSetBackByALateBatch() throws {
        let store = try storeWithOneTodo()
        let todo = store.entity(1, in: \.database.todos)
        let titles = ENBox<[String?]>([])
        let subscription = todo.sinkValue { changes in
            let title = changes.current?.title
            titles.update { $0.append(title) }
        }
        // The batch's commit released the gate: this later commit is published at once.
        try whileABatchedCommitWaits(in: store) {
            try store.commit { try $0.database.todos.update(1) { $0.title = "later" } }
        }
        withExtendedLifetime(subscription) {}
        #expect(store.currentState.database.todos[1]?.title == "later")
        #expect(todo.value?.title == "later")
        #expect(titles.value.last == "later")
    }

    /// A subscriber cancels another one's subscription while an activity is delivered: the
    /// cancelled one is not called, as a state subscriber cancelled that way is not.
    @Test("an activity subscriber cancelled by an earlier one in the same delivery is not called")
    func activitySubscriberCancelledDuringDeliveryIsNotCalled() {
        let store = Store<ENState, Int>(initialState: ENState())
        let log = ENBox<[String]>([])
        let second = ENBox<Subscription?>(nil)
        let first = store.sinkActivity { activity in
            log.update { $0.append("first \(activity)") }
            second.value?.cancel()
        }
        second.value = store.sinkActivity { activity in log.update { $0.append("second \(activity)") } }
        store.send(1)
        store.send(2)
        withExtendedLifetime(first) {}
        #expect(log.value == ["first 1", "first 2"])
    }
}
