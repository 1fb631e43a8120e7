import Testing
@testable import Ripple

@Suite("Glitch freedom")
struct GlitchTests {
    @Test("a diamond shows only new values and evaluates once per write")
    func diamond() {
        let head = Stored(1)
        let left = Computed { head.value * 2 }
        let right = Computed { head.value * 3 }
        let evaluations = Counter()
        let sum = Computed {
            evaluations.increment(); return "\(left.value)+\(right.value)"
        }
        let seen = Recorder<String>()
        let subscription = observe { seen.append(sum.value) }
        head.value = 2
        head.value = 3
        #expect(seen.all == ["2+3", "4+6", "6+9"])
        #expect(evaluations.value == 3)
        subscription.cancel()
    }

    @Test("a jagged diamond (paths of different length) never mixes old and new")
    func jaggedDiamond() {
        let head = Stored(0)
        let short = Computed { head.value }
        var long = Computed { head.value }
        for _ in 0..<5 {
            let previous = long
            long = Computed { previous.value }
        }
        let end = long
        let evaluations = Counter()
        let pair = Computed {
            evaluations.increment(); return [short.value, end.value]
        }
        let seen = Recorder<[Int]>()
        let subscription = observe { seen.append(pair.value) }
        for value in 1...5 { head.value = value }
        #expect(seen.all == (0...5).map { [$0, $0] })
        #expect(evaluations.value == 6)
        subscription.cancel()
    }

    @Test("a reaction reading several nodes runs once per write")
    func reactionRunsOncePerWrite() {
        let head = Stored(0)
        let nodes = (0..<10).map { offset in Computed { head.value + offset } }
        let runs = Counter()
        let subscription = observe {
            for node in nodes { _ = node.value }
            runs.increment()
        }
        head.value = 1
        head.value = 2
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("a chain of 10,000 computed values propagates without overflowing the stack")
    func longChain() async {
        // Run on a thread with a small stack (Swift concurrency's pool) to prove the walk is iterative.
        let result = await Task.detached { () -> [Int] in
            let head = Stored(0)
            let chain = Self.chain(from: head, length: 10_000)
            let end = chain[chain.count - 1]
            let seen = Recorder<Int>()
            let subscription = observe { seen.append(end.value) }
            head.value = 5
            head.value = 6
            subscription.cancel()
            return seen.all
        }.value
        #expect(result == [10_000, 10_005, 10_006])
    }

    @Test("an unobserved chain of 10,000 is verified iteratively on read")
    func longUnobservedChain() async {
        let result = await Task.detached { () -> Int in
            let head = Stored(0)
            let chain = Self.chain(from: head, length: 10_000)
            head.value = 1
            return chain[chain.count - 1].value
        }.value
        #expect(result == 10_001)
    }

    /// `length` computed values, each its predecessor plus one, each evaluated once as it is
    /// built (so that no first evaluation recurses through the whole chain).
    static func chain(from head: Stored<Int>, length: Int) -> [Computed<Int>] {
        var chain = [Computed { head.value + 1 }]
        for _ in 1..<length {
            let previous = chain[chain.count - 1]
            let node = Computed { previous.value + 1 }
            _ = node.value
            chain.append(node)
        }
        return chain
    }
}
