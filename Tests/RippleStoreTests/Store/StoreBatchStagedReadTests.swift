import Foundation
import Testing

@testable import RippleStore

/// A batch's apply after a reaction started in the batch read the store's state, then the batch
/// committed again (see `_StagedRead` in Ripple).
@Suite struct StoreBatchStagedReadTests {
    /// The store's state node drops a snapshot older than the one it holds. A batch that
    /// commits twice, with a reaction started in between reading the first commit's state,
    /// must still drop its second snapshot when another thread published a later one meanwhile.
    @Test("a batch's second commit, after a reaction read its first, does not set the store back to an older state")
    func batchDoesNotSetTheStoreBack() {
        let store = AppStore(initialState: AppState())
        let counts = Recorder<Int>()
        let reaction = StagedReadBox()
        let staged = DispatchSemaphore(value: 0)
        let otherCommitted = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            batch {
                store.commit { $0.count += 1 }
                reaction.value = observe { counts.append(store.currentState.count) }
                store.commit { $0.count += 1 }
                staged.signal()
                otherCommitted.wait()
            }
            finished.signal()
        }
        staged.wait()
        // Published at once (the batch's commits released the gate), on top of the batch's two.
        store.commit { $0.count += 1 }
        otherCommitted.signal()
        finished.wait()
        #expect(store.currentState.count == 3)
        #expect(store.version == 3)
        #expect(counts.values.last == 3, "the reaction saw \(counts.values)")
        reaction.value?.cancel()
    }
}

/// Hands the reaction made on the batch's thread to the test.
private final class StagedReadBox: @unchecked Sendable {
    var value: Subscription?
}
