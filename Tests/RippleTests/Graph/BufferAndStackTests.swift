import Testing
@testable import Ripple

/// Direct tests of the graph's two plain-memory containers, against `Array` as the reference
/// model: random operation sequences, replayable by seed.
@Suite struct BufferAndStackTests {
    @Test("_Buffer: random appends, removals, writes and takes agree with an Array", arguments: 0..<50)
    func buffer(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        var buffer = _Buffer<Int>()
        var model: [Int] = []
        for step in 0..<500 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                buffer.append(step)
                model.append(step)
            case 5 where !model.isEmpty:
                let n = Int.random(in: 1...model.count, using: &generator)
                buffer.removeLast(n)
                model.removeLast(n)
            case 6 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                buffer[index] = -step
                model[index] = -step
            case 7:
                var taken = buffer.take()
                let emptied = buffer.isEmpty
                #expect(emptied)
                let takenElements = (0..<taken.count).map { taken[$0] }
                #expect(takenElements == model)
                // Give it back, element by element, as the graph's release queue would drain it.
                for index in 0..<taken.count { buffer.append(taken[index]) }
                taken.removeAll()
            case 8 where Bool.random(using: &generator):
                buffer.removeAllKeepingCapacity()
                model.removeAll()
            default:
                break
            }
            let (count, isEmpty, last) = (buffer.count, buffer.isEmpty, buffer.last)
            #expect(count == model.count)
            #expect(isEmpty == model.isEmpty)
            #expect(last == model.last)
        }
        let elements = (0..<buffer.count).map { buffer[$0] }
        #expect(elements == model)
    }

    @Test("_Buffer: growth from empty keeps every element, and removeAll frees it")
    func bufferGrowth() {
        var buffer = _Buffer<Int>()
        let unallocated = !buffer.isAllocated
        #expect(unallocated)
        for value in 0..<10_000 { buffer.append(value) }
        let count = buffer.count
        #expect(count == 10_000)
        let ordered = (0..<buffer.count).allSatisfy { buffer[$0] == $0 }
        #expect(ordered)
        buffer.removeAll()
        let (freed, isEmpty) = (!buffer.isAllocated, buffer.isEmpty)
        #expect(freed)
        #expect(isEmpty)
    }

    @Test("_Stack: random pushes, pops and writes agree with an Array, across growth", arguments: 0..<50)
    func stack(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 99)
        var stack = _Stack<Int>()
        var model: [Int] = []
        for step in 0..<1_000 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0..<5:
                stack.append(step)
                model.append(step)
            case 5 where !model.isEmpty:
                let popped = stack.removeLast()
                #expect(popped == model.removeLast())
            case 6 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                stack[index] = -step
                model[index] = -step
            default:
                break
            }
            let count = stack.count
            #expect(count == model.count)
        }
        let elements = (0..<stack.count).map { stack[$0] }
        #expect(elements == model)
        while !model.isEmpty {
            let popped = stack.removeLast()
            #expect(popped == model.removeLast())
        }
        let count = stack.count
        #expect(count == 0)
    }
}
