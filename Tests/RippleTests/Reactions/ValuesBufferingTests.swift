import Ripple
import Testing

@Suite struct ValuesBufferingTests {
    /// Writes 1…100 while nobody consumes, then takes what the stream kept.
    private func kept(_ buffering: ValuesBuffering?) async -> [Int] {
        let count = Stored(0)
        let stream = buffering.map { count.values(buffering: $0) } ?? count.values
        for value in 1...100 { count.value = value }
        var taken: [Int] = []
        for await value in stream {
            taken.append(value)
            if value == 100 { break }
        }
        return taken
    }

    @Test("by default a slow consumer skips to the newest value")
    func latestByDefault() async {
        #expect(await kept(nil) == [100])
        #expect(await kept(.latest) == [100])
    }

    @Test("a bounded buffer keeps the newest values; unbounded keeps every one")
    func boundedAndUnbounded() async {
        #expect(await kept(.newest(10)) == Array(91...100))
        #expect(await kept(.unbounded) == Array(0...100))
    }

    @Test("a consumer that keeps up sees every change, in order")
    func keepingUp() async {
        let count = Stored(0)
        var iterator = count.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        for value in 1...5 {
            count.value = value
            #expect(await iterator.next() == value)
        }
    }
}
