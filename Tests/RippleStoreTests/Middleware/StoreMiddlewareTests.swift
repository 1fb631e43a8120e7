import RippleStore
import Testing

enum TDOrigin: TransactionKey {
    static let defaultValue = "app"
}

struct TDClampedState: Equatable, Sendable, DerivedFields {
    var count = 0
    var name = ""
    private(set) var doubled = 0

    static func updateDerivedFields(of state: inout TDClampedState, after changes: Changes<TDClampedState>) {
        state.doubled = state.count * 2
    }
}

/// Issue 10 item 6: middleware inspects and rewrites each commit, in order.
@Suite("StoreMiddleware")
struct StoreMiddlewareTests {
    @Test("middleware runs in order, after the mutation and the derived fields, and rewrites the state")
    func runsInOrderAndRewritesState() {
        let order = TDLog<String>()
        let clamp = StoreMiddleware<TDClampedState>("clamp") { state, previous, _ in
            order.append("clamp \(previous.count)->\(state.count) doubled \(state.doubled)")
            state.count = min(state.count, 10)
        }
        let audit = StoreMiddleware<TDClampedState>("audit") { state, _, _ in
            order.append("audit \(state.count)")
        }
        let store = Store<TDClampedState, Never>(initialState: TDClampedState(), middleware: [clamp, audit])
        let counts = TDLog<Int>()
        let subscription = store.sinkState(dropsFirst: true) { counts.append($0.current.count) }
        store.commit { $0.count = 5 }
        store.commit { $0.count = 50 }
        #expect(order.all == ["clamp 0->5 doubled 10", "audit 5", "clamp 5->50 doubled 100", "audit 10"])
        #expect(store.currentState.count == 10)
        #expect(counts.all == [5, 10])
        #expect(clamp.name == "clamp")
        subscription.cancel()
    }

    @Test("a commit that middleware turns into no change publishes nothing")
    func rewrittenToNoChange() {
        let revert = StoreMiddleware<TDClampedState>("freeze name") { state, previous, _ in
            state.name = previous.name
        }
        let store = Store<TDClampedState, Never>(initialState: TDClampedState(), middleware: [revert])
        let deliveries = TDCounter()
        let subscription = store.sinkState(dropsFirst: true) { _ in deliveries.increment() }
        store.commit { $0.name = "x" }
        #expect(deliveries.value == 0)
        #expect(store.version == 0)
        subscription.cancel()
    }

    @Test("middleware rewrites the transaction: name and typed metadata reach subscribers")
    func rewritesTransaction() {
        let tag = StoreMiddleware<TDClampedState>("tag") { state, _, transaction in
            transaction.name = "tagged \(transaction.name ?? "?")"
            transaction[TDOrigin.self] = "middleware"
        }
        let seesTag = TDLog<String>()
        let second = StoreMiddleware<TDClampedState>("second") { _, _, transaction in
            seesTag.append(transaction[TDOrigin.self])
        }
        let store = Store<TDClampedState, Never>(initialState: TDClampedState(), middleware: [tag, second])
        let transactions = TDLog<String>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            transactions.append("\(changes.transaction.name ?? "nil") \(changes.transaction[TDOrigin.self])")
        }
        store.commit("bump") { $0.count += 1 }
        store.commit { state, transaction in
            transaction[TDOrigin.self] = "caller"
            state.count += 1
        }
        #expect(transactions.all == ["tagged bump middleware", "tagged ? middleware"])
        #expect(seesTag.all == ["middleware", "middleware"])
        subscription.cancel()
    }
}
