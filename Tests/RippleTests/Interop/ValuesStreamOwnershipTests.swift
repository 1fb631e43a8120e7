import Synchronization
import Testing
@testable import Ripple

@Suite("A values stream made inside a reaction")
struct ValuesStreamOwnershipTests {
    // `values` is a sequence, not a reaction the caller holds: nothing but the iteration (or
    // the sequence's release) may end the reaction that feeds it. Made inside a reaction's
    // body, that reaction was the run's child, cancelled at the next run: the stream then
    // neither yielded nor finished, and its consumer waited forever.
    @Test("a values stream made inside a reaction's body outlives that run and the reaction")
    func valuesMadeInsideReaction() async throws {
        let value = Stored(0)
        let trigger = Stored(0)
        let made = Mutex<AsyncStream<Int>?>(nil)
        let reaction = observe {
            _ = trigger.value
            made.withLock { stream in
                if stream == nil { stream = value.values(buffering: .unbounded) }
            }
        }
        var iterator = try #require(made.withLock { $0 }).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        trigger.value = 1
        try #require(value.hasObserversForTesting, "the stream's reaction survives the next run")
        value.value = 2
        #expect(await iterator.next() == 2)
        reaction.cancel()
        try #require(value.hasObserversForTesting, "the stream's reaction survives the cancel")
        value.value = 3
        #expect(await iterator.next() == 3)
    }
}
