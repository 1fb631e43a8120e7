import Testing
@testable import Ripple

@Suite("Value streams")
struct ValuesTests {
    // `values` keeps only the newest value a slow consumer has not taken (see
    // ValuesBufferingTests); an unbounded stream keeps each change.
    @Test("an unbounded values stream yields the current value first, then each change")
    func currentThenChanges() async {
        let value = Stored(1)
        var iterator = value.values(buffering: .unbounded).makeAsyncIterator()
        #expect(await iterator.next() == 1)
        value.value = 2
        value.value = 2
        value.value = 3
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
    }

    @Test("a computed value's stream follows its changes only")
    func computedStream() async {
        let value = Stored(1)
        let parity = Computed { value.value % 2 }
        var iterator = parity.values(buffering: .unbounded).makeAsyncIterator()
        #expect(await iterator.next() == 1)
        value.value = 3
        value.value = 4
        #expect(await iterator.next() == 0)
    }

    @Test("ending the iteration cancels the underlying reaction")
    func cancellation() async {
        let value = Stored(1)
        do {
            var iterator = value.values.makeAsyncIterator()
            _ = await iterator.next()
        }
        #expect(!value.hasObserversForTesting)
    }
}
