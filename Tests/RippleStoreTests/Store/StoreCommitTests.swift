import RippleStore
import Testing

@Suite("Store commit")
struct StoreCommitTests {
    @Test("commit returns what the mutation returned, from both forms")
    func returnsResult() {
        let store = AppStore(initialState: AppState())
        let doubled = store.commit { state -> Int in
            state.count = 21
            return state.count * 2
        }
        #expect(doubled == 42)
        let label = store.commit("named") { state, transaction -> String in
            state.name = "Ada"
            return "\(transaction.name ?? "-"):\(state.name)"
        }
        #expect(label == "named:Ada")
        // A commit that changes nothing still returns its result.
        let unchanged = store.commit { $0.count }
        #expect(unchanged == 21)
        #expect(store.currentState == AppState(name: "Ada", count: 21))
        #expect(store.version == 2)
    }

    @Test("8 threads × 500 increments end at 4000, each commit seeing a distinct state")
    func atomicFromManyThreads() {
        let store = AppStore(initialState: AppState())
        let threads = 8, perThread = 500
        let results = Recorder<Int>()
        runOnThreads(threads) { _ in
            for _ in 0..<perThread {
                let value = store.commit { state -> Int in
                    state.count += 1
                    return state.count
                }
                results.append(value)
            }
        }
        #expect(store.currentState.count == threads * perThread)
        #expect(store.version == UInt64(threads * perThread))
        // Each mutation ran on the state the previous one left: 1...4000, each once.
        #expect(results.values.sorted() == Array(1...(threads * perThread)))
    }

    @Test("a throwing mutation rethrows its typed error, leaves state and version, delivers nothing")
    func throwingMutation() {
        let store = AppStore(initialState: AppState(name: "before", count: 1))
        let deliveries = Recorder<UInt64>()
        let subscription = store.sinkState(dropsFirst: true) { deliveries.append($0.version) }
        let caught: CoreCommitError?
        do throws(CoreCommitError) {
            try store.commit { (state: inout AppState) throws(CoreCommitError) -> Void in
                state.name = "half-way"
                state.count = 99
                throw .refused
            }
            caught = nil
        } catch {
            caught = error  // statically a CoreCommitError: typed throws
        }
        #expect(caught == .refused)
        #expect(store.currentState == AppState(name: "before", count: 1))
        #expect(store.version == 0)
        #expect(deliveries.values.isEmpty)

        // Also with the transaction form.
        #expect(throws: CoreCommitError.refused) {
            try store.commit { (state: inout AppState, transaction: inout Transaction) throws(CoreCommitError) in
                transaction[CoreOrigin.self] = "doomed"
                state.count = 5
                throw CoreCommitError.refused
            }
        }
        #expect(store.currentState == AppState(name: "before", count: 1))

        // The store is usable afterwards, also from another thread (the failed commit let go of it).
        runOnThreads(1) { _ in store.commit { $0.count += 1 } }
        #expect(store.currentState.count == 2)
        #expect(store.version == 1)
        #expect(deliveries.values == [1])
        withExtendedLifetime(subscription) {}
    }

    @Test("a commit that changes nothing emits nothing")
    func emptyCommit() {
        let store = AppStore(initialState: AppState(count: 3))
        let deliveries = Recorder<UInt64>()
        let subscription = store.sinkState { deliveries.append($0.version) }
        #expect(deliveries.values == [0])
        store.commit { _ in }
        store.commit { $0.count = 3 }
        store.commit("round trip") { state in
            state.count += 1
            state.count -= 1
        }
        #expect(store.version == 0)
        #expect(deliveries.values == [0])
        store.commit { $0.count = 4 }
        #expect(store.version == 1)
        #expect(deliveries.values == [0, 1])
        withExtendedLifetime(subscription) {}
    }

    @Test("commit names and typed transaction metadata reach subscribers")
    func transactionMetadata() throws {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<(name: String?, origin: String, attempt: Int, line: UInt)>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            seen.append(
                (
                    changes.transaction.name, changes.transaction[CoreOrigin.self],
                    changes.transaction[CoreAttempt.self], changes.transaction.line
                ))
        }
        store.commit("rename") { state, transaction in
            transaction[CoreOrigin.self] = "pull to refresh"
            transaction[CoreAttempt.self] = 3
            state.name = "Ada"
        }
        let namedLine: UInt = #line + 1
        store.commit("increment") { $0.count += 1 }
        store.commit { state, transaction in
            transaction.name = "set inside"
            state.count += 1
        }
        let values = seen.values
        try #require(values.count == 3)
        #expect(values[0].name == "rename")
        #expect(values[0].origin == "pull to refresh")
        #expect(values[0].attempt == 3)
        #expect(values[1].name == "increment")
        #expect(values[1].origin == "app")  // the key's default: metadata does not leak across commits
        #expect(values[1].attempt == 0)
        #expect(values[1].line == namedLine)
        #expect(values[2].name == "set inside")
        withExtendedLifetime(subscription) {}
    }

    @Test("a reference-type state is rejected with a message saying why")
    func referenceStateRejected() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                final class ClassState: Equatable, Sendable {
                    static func == (lhs: ClassState, rhs: ClassState) -> Bool { lhs === rhs }
                }
                let store = Store<ClassState, Never>(initialState: ClassState())
                withExtendedLifetime(store) {}
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("ClassState"))
        #expect(message.contains("is a class"))
        #expect(message.contains("value type"))
    }

    @Test("a commit inside another commit's mutation on the same store stops with a message")
    func commitInsideMutation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = AppStore(initialState: AppState())
                store.commit("outer") { state in
                    state.count = 1
                    store.commit("inner") { $0.name = "nested" }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("inner"))
        #expect(message.contains("inside the mutation of another commit"))
    }

    @Test("a commit inside a transaction-form mutation also stops")
    func commitInsideTransactionMutation() async {
        await #expect(processExitsWith: .failure) {
            let store = AppStore(initialState: AppState())
            store.commit { state, _ in
                state.count = 1
                store.increment()
            }
        }
    }
}
