import RippleStore
import Testing

/// Issue 10 item 9: commits from async code, and the state as asynchronous sequences.
@Suite("Async: commits and sequences")
struct StoreAsyncSequenceTests {
    @Test("a commit from an async test and from inside a Task")
    func commitFromAsyncContext() async {
        let store = TDStore(initialState: TDState())
        store.increment()
        let result = await Task {
            store.commit { state -> Int in
                state.count += 10; return state.count
            }
        }.value
        #expect(result == 11)
        await Task.detached { store.rename("detached") }.value
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { store.increment() } }
        }
        #expect(store.currentState.count == 21)
        #expect(store.currentState.name == "detached")
    }

    @Test("a commit from an actor")
    func commitFromAnActor() async {
        actor Worker {
            func bump(_ store: TDStore) -> Int {
                store.commit {
                    $0.count += 1; return $0.count
                }
            }
        }
        let store = TDStore(initialState: TDState())
        let worker = Worker()
        #expect(await worker.bump(store) == 1)
        #expect(await worker.bump(store) == 2)
    }

    @Test("states delivers the current state, then every commit in order, and ends when the store is released")
    func statesSequence() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let states = store!.states
        let commits = 100
        for _ in 0..<commits { store!.increment() }
        store!.rename("same count")  // a commit is delivered even when count is the same
        store!.commit { $0.count = $0.count }  // no change: not delivered
        store = nil
        var received: [TDState] = []
        for await state in states { received.append(state) }
        #expect(received.map(\.count) == Array(0...commits) + [commits])
        #expect(received.last?.name == "same count")
    }

    @Test("two iterators made from one states value each get every state")
    func statesIteratedTwice() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let states = store!.states
        let counts = store!.states.count
        for _ in 0..<4 { store!.increment() }
        store = nil
        var first: [Int] = []
        for await state in states { first.append(state.count) }
        var second: [Int] = []
        for await state in states { second.append(state.count) }
        #expect(first == [0, 1, 2, 3, 4])
        #expect(second == [0, 1, 2, 3, 4])
        var firstCounts: [Int] = []
        var secondCounts: [Int] = []
        var one = counts.makeAsyncIterator()
        var two = counts.makeAsyncIterator()
        while let count = await one.next() { firstCounts.append(count) }
        while let count = await two.next() { secondCounts.append(count) }
        #expect(firstCounts == [0, 1, 2, 3, 4])
        #expect(secondCounts == [0, 1, 2, 3, 4])
    }

    @Test("an iterator made after the sequence started gets the states since the access, then the later ones")
    func statesIteratedWhileLive() async {
        let store = TDStore(initialState: TDState())
        let states = store.states.count
        var one = states.makeAsyncIterator()
        store.increment()
        #expect(await one.next() == 0)
        var two = states.makeAsyncIterator()
        store.increment()
        #expect(await one.next() == 1)
        #expect(await one.next() == 2)
        var seen: [Int] = []
        for _ in 0..<3 { if let count = await two.next() { seen.append(count) } }
        #expect(seen == [0, 1, 2])
    }

    @Test("changes delivers each commit's Changes in order, and ends when the store is released")
    func changesSequence() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let changes = store!.changes
        store!.increment()
        store!.rename("Ada")
        store!.increment()
        store = nil
        var received: [Changes<TDState>] = []
        for await change in changes { received.append(change) }
        #expect(received.map(\.version) == [0, 1, 2, 3])
        #expect(received.map { $0.previous?.count } == [nil, 0, 1, 1])
        #expect(received.map(\.count) == [0, 1, 1, 2])
        #expect(received.map(\.transaction.name) == ["initial state", "increment", "rename", "increment"])
        #expect(received[2].hasChanges(\.name))
        #expect(!received[2].hasChanges(\.count))
    }

    @Test("states delivers every commit from 2 threads, in commit order")
    func statesUnderConcurrentCommits() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let states = store!.states
        let perThread = 200
        do {
            let shared = store!
            runOnThreads(2) { _ in
                for _ in 0..<perThread { shared.increment() }
            }
        }
        store = nil
        var counts: [Int] = []
        for await state in states { counts.append(state.count) }
        #expect(counts == Array(0...(2 * perThread)))
    }

    @Test("a sequence that is iterated while commits happen in a task sees them in order")
    func iteratedConcurrently() async {
        let store = TDStore(initialState: TDState())
        let states = store.states
        let writer = Task {
            for _ in 0..<50 { store.increment() }
        }
        var counts: [Int] = []
        for await state in states {
            counts.append(state.count)
            if state.count == 50 { break }
        }
        await writer.value
        #expect(counts == Array(0...50))
    }
}
