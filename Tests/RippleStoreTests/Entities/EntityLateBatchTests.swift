import Foundation
import Testing

@testable import RippleStore

/// Regression tests for reads of an entity while a commit made inside a `batch` on another
/// thread has not been applied yet.
@Suite struct EntityLateBatchTests {
    /// A commit made inside a `batch` changes an entity; before that batch ends, a later
    /// commit from another thread, which does not touch that entity, is published. The state
    /// it publishes holds the batch's change (it was made on top of it), so the entity read
    /// through `entity(_:in:)` must hold it too: a reader of both never sees them disagree.
    @Test("an entity read after a later commit holds the change of a commit still waiting in a batch")
    func entityReadAfterALaterCommitIsNotStale() throws {
        let store = try storeWithOneTodo()
        let todo = store.entity(1, in: \.database.todos)
        #expect(todo.value?.title == "initial")
        var stateTitle: String?
        var entityTitle: String?
        whileABatchedCommitWaits(in: store) {
            // Published at once (the batch's commit released the gate), made on top of the
            // batch's commit; it leaves todo 1 as that commit left it.
            store.commit { $0.title = "later" }
            stateTitle = store.currentState.database.todos[1]?.title
            entityTitle = todo.value?.title
        }
        #expect(stateTitle == "from the batch")
        #expect(entityTitle == stateTitle)
        #expect(todo.value?.title == "from the batch")
    }

    /// The same, with a subscriber of the entity: it hears the batch's change once the later
    /// commit is published, not only when the batch ends.
    @Test("an entity subscriber hears a batch's waiting change when a later commit is published")
    func entitySubscriberHearsTheChangeWithALaterCommit() throws {
        let store = try storeWithOneTodo()
        let todo = store.entity(1, in: \.database.todos)
        let titles = ENBox<[String?]>([])
        let subscription = todo.sinkValue { changes in
            let title = changes.current?.title
            titles.update { $0.append(title) }
        }
        var heardBeforeTheBatchEnded: [String?] = []
        whileABatchedCommitWaits(in: store) {
            store.commit { $0.title = "later" }
            heardBeforeTheBatchEnded = titles.value
        }
        withExtendedLifetime(subscription) {}
        #expect(heardBeforeTheBatchEnded.last == "from the batch")
        #expect(titles.value.last == "from the batch")
    }
}
