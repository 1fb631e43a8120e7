import RippleStore
import Testing

/// Issue 10 item 9: keyed tasks owned by the store. Tasks are coordinated with signals and
/// gates (AsyncStreams), never by sleeping.
@Suite("Async: keyed store tasks")
struct StoreTaskTests {
    @Test(".replace cancels the task running under the same key")
    func replaceCancelsRunning() async {
        let store = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let first = store.task("search") {
            started.signal()
            await gate.pass()
            log.append(Task.isCancelled ? "first cancelled" : "first finished")
        }
        await started.wait()
        #expect(store.isTaskRunning("search"))
        let second = store.task("search") { log.append("second") }
        #expect(first.isCancelled, "a .replace task did not cancel the one running under its key")
        gate.open()
        await first.value
        await second.value
        #expect(log.all.contains("first cancelled"))
        #expect(log.all.contains("second"))
        #expect(!second.isCancelled)
    }

    @Test(".replace does not touch tasks under other keys")
    func replaceIsPerKey() async {
        let store = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let other = store.task("a") {
            started.signal()
            await gate.pass()
        }
        await started.wait()
        await store.task("b") {}.value
        #expect(!other.isCancelled)
        #expect(store.isTaskRunning("a"))
        gate.open()
        await other.value
    }

    @Test(".enqueue runs after the previous task under the key ended")
    func enqueueRunsAfter() async {
        let store = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let first = store.task("save", policy: .enqueue) {
            started.signal()
            await gate.pass()
            log.append("first end")
        }
        await started.wait()
        let second = store.task("save", policy: .enqueue) { log.append("second") }
        #expect(store.isTaskRunning("save"))
        gate.open()
        await second.value
        #expect(log.all == ["first end", "second"])
        #expect(!first.isCancelled)
        #expect(!store.isTaskRunning("save"))
    }

    @Test(".enqueue keeps the order of many tasks")
    func enqueueKeepsOrder() async {
        let store = TDStore(initialState: TDState())
        let log = TDLog<Int>()
        var tasks: [Task<Void, Never>] = []
        for i in 0..<20 {
            tasks.append(
                store.task("queue", policy: .enqueue) {
                    await Task.yield()
                    log.append(i)
                    await Task.yield()
                })
        }
        for task in tasks { await task.value }
        #expect(log.all == Array(0..<20))
    }

    @Test("releasing the store cancels every task it owns, running or queued")
    func cancelledWithTheStore() async {
        var store: TDStore? = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let running = store!.task("a") {
            started.signal()
            await gate.pass()
            log.append(Task.isCancelled ? "a cancelled" : "a finished")
        }
        let queued = store!.task("a", policy: .enqueue) { log.append("queued ran") }
        let other = store!.task("b") {
            started.signal()
            await gate.pass()
            log.append(Task.isCancelled ? "b cancelled" : "b finished")
        }
        await started.wait()
        await started.wait()
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil, "a store task kept the store alive")
        #expect(running.isCancelled)
        #expect(queued.isCancelled)
        #expect(other.isCancelled)
        gate.open()
        await running.value
        await queued.value
        await other.value
        #expect(Set(log.all) == ["a cancelled", "b cancelled"])
    }

    @Test("cancelTask cancels the tasks under its key only; isTaskRunning follows")
    func cancelTaskAndIsTaskRunning() async {
        let store = TDStore(initialState: TDState())
        #expect(!store.isTaskRunning("k"))
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let task = store.task("k") {
            started.signal()
            await gate.pass()
            log.append(Task.isCancelled ? "k cancelled" : "k finished")
        }
        let queued = store.task("k", policy: .enqueue) { log.append("queued ran") }
        let other = store.task(42) {
            started.signal()
            await gate.pass()
        }
        await started.wait()
        await started.wait()
        #expect(store.isTaskRunning("k"))
        #expect(store.isTaskRunning(42))
        store.cancelTask("k")
        #expect(task.isCancelled)
        #expect(queued.isCancelled)
        #expect(!other.isCancelled)
        #expect(!store.isTaskRunning("k"))
        #expect(store.isTaskRunning(42))
        gate.open()
        await task.value
        await queued.value
        await other.value
        #expect(log.all == ["k cancelled"])
        #expect(!store.isTaskRunning(42))
    }

    @Test("a task commits to its store; isTaskRunning is false once it ended")
    func taskCommits() async {
        let store = TDStore(initialState: TDState())
        let task = store.task("load") { [weak store] in
            store?.commit { $0.name = "loaded" }
        }
        await task.value
        #expect(store.currentState.name == "loaded")
        #expect(!store.isTaskRunning("load"))
    }

    /// Waits on the gate even when cancelled: a save that does not check cancellation.
    private static func passIgnoringCancellation(_ gate: TDGate) async {
        await Task { await gate.pass() }.value
    }

    @Test(".enqueue after .replace waits for the replaced task, still running though cancelled")
    func enqueueAfterReplaceDoesNotOverlap() async {
        let store = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let first = store.task("save") {
            started.signal()
            await Self.passIgnoringCancellation(gate)
            log.append("first end")
        }
        await started.wait()
        let second = store.task("save") { log.append("second") }
        await second.value
        let third = store.task("save", policy: .enqueue) { log.append("third") }
        // Chances for it to start (it must not: `first` has not ended).
        for _ in 0..<1_000 { await Task.yield() }
        #expect(log.all == ["second"])
        #expect(store.isTaskRunning("save"), "the enqueued task waits")
        gate.open()
        await first.value
        await third.value
        #expect(log.all == ["second", "first end", "third"])
    }

    @Test(".enqueue after cancelTask waits for the cancelled task to end; isTaskRunning does not count it")
    func enqueueAfterCancelTaskDoesNotOverlap() async {
        let store = TDStore(initialState: TDState())
        let started = TDSignal()
        let gate = TDGate()
        let log = TDLog<String>()
        let first = store.task("save", policy: .enqueue) {
            started.signal()
            await Self.passIgnoringCancellation(gate)
            log.append("first end")
        }
        await started.wait()
        store.cancelTask("save")
        #expect(!store.isTaskRunning("save"), "cancelled, though it has not reached its end")
        let second = store.task("save", policy: .enqueue) { log.append("second") }
        for _ in 0..<1_000 { await Task.yield() }
        #expect(log.all == [])
        gate.open()
        await first.value
        await second.value
        #expect(log.all == ["first end", "second"])
        #expect(!store.isTaskRunning("save"))
    }
}
