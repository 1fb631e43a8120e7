import Testing
@testable import Ripple

@Suite("The job queue")
struct JobQueueTests {
    @Test("queued jobs are taken in order, each once, and the queue is emptied at the end")
    func order() {
        var queue = _JobQueue()
        let nodes = [Stored(0), Stored(1), Stored(2)]
        for node in nodes { queue.append(.notify(node)) }
        #expect(queue.hasJobs == true)
        var taken: [Int] = []
        while let index = queue.next() {
            taken.append(index)
            // A job its run queued is taken in the same loop.
            if index == 0 { queue.append(.notify(nodes[0])) }
        }
        #expect(taken == [0, 1, 2, 3])
        for index in 0..<queue.jobs.count { queue.jobs[index].ref.release() }
        queue.end()
        #expect(queue.hasJobs == false)
        #expect(queue.jobs.count == 0)
    }
}
