import Testing
@testable import Ripple

/// `_Locked`: state reachable only inside `withLock`, with the one lock type.
@Suite struct LockedTests {
    @Test("changes made inside withLock from many threads are all kept")
    func excludesOtherThreads() {
        let counter = _Locked(0)
        let threads = 8
        let iterations = 2_000
        runOnThreads(threads) { _ in
            for _ in 0..<iterations {
                counter.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == threads * iterations)
    }

    @Test("withLock returns what its body returns, and rethrows what it throws")
    func returnsAndRethrows() {
        struct Refused: Error {}
        let names = _Locked<[String]>([])
        let count = names.withLock { names -> Int in
            names.append("a")
            return names.count
        }
        #expect(count == 1)
        #expect(throws: Refused.self) {
            try names.withLock { _ in throw Refused() }
        }
        // The lock was released by the throw: it can be taken again.
        #expect(names.withLock { $0 } == ["a"])
    }
}
