import Foundation
import RippleStore
import Testing

/// A reducer whose `go` starts a stream of `ticks` actions and sends `step` at once; `step`
/// waits until the stream has sent `readyAfter` of them, so that the stream runs while the
/// caller's own work is being reduced.
struct SRStream: Reducer {
    struct State: Equatable {
        var ticks = 0
        var steps = 0
    }

    enum Action: Equatable, Sendable {
        case go, step, tick, hold, flood
    }

    /// The thread of the `send` under test.
    let caller = RDBox<ObjectIdentifier?>(nil)

    /// The queue's bound for synchronous sends.
    static let queueBound = _ReducerEngine<SRStream>.queueBound

    let ticks: Int
    let readyAfter: Int
    let ready = DispatchSemaphore(value: 0)
    /// Reductions made on the caller's thread, inside its `send`.
    let reducedByCaller = RDBox(0)
    /// Holds the reduction of `hold` until signalled.
    let release = DispatchSemaphore(value: 0)

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        if caller.value == ObjectIdentifier(Thread.current) { reducedByCaller.update { $0 += 1 } }
        switch action {
        case .go:
            let (ticks, readyAfter, ready) = (ticks, readyAfter, ready)
            return .merge(
                .run { send in
                    for index in 1...ticks {
                        await send(.tick)
                        if index == readyAfter { ready.signal() }
                    }
                },
                .send(readyAfter == 0 ? .hold : .step)
            )
        case .step:
            ready.wait()
            state.steps += 1
            return .none
        case .tick:
            state.ticks += 1
            return .none
        case .hold:
            release.wait()
            return .none
        case .flood:
            return .create { continuation in
                for _ in 0...Self.queueBound { continuation.send(.tick) }
                continuation.finish()
            }
        }
    }
}

/// `send` returns once its own action, and what that action's effect sent at once, are reduced:
/// an effect's stream does not hold it.
@Suite("send returns when its own work is done")
struct SendReturnTests {
    @Test("a send that reduces while an effect streams returns after its own two reductions")
    func sendIsNotHeldByAStream() async {
        let reducer = SRStream(ticks: 10_000, readyAfter: 1_000)
        let store = ReducerStore(reducer: reducer, initialState: SRStream.State())
        // On a thread of its own, so that no thread of the cooperative pool, which runs the
        // stream, waits.
        await onNewThread {
            reducer.caller.value = ObjectIdentifier(Thread.current)
            store.send(.go)
            reducer.caller.value = nil
        }
        #expect(reducer.reducedByCaller.value == 2, "send reduced the stream's actions before returning")
        #expect(store.currentState.steps == 1)
        // The stream's actions are reduced all the same, after `send` returned.
        #expect(await rdEventually(10_000_000) { store.currentState.ticks == 10_000 })
    }
}

/// An effect's stream goes at the store's pace: its `send` waits while the queue is full.
@Suite("effect streams wait for room in the queue")
struct EffectBackpressureTests {
    @Test("a stream sending while the store is held waits once the queue is full")
    func aStreamWaitsForRoom() async {
        let reducer = SRStream(ticks: 5_000, readyAfter: 0)
        let store = ReducerStore(reducer: reducer, initialState: SRStream.State())
        let sent = TDSignal()
        Thread.detachNewThread {
            store.send(.go)
            sent.signal()
        }
        let parked = await rdEventually(1_000_000) { store._engine.parkedSendCountForTesting == 1 }
        let queued = store._engine.queuedCountForTesting
        reducer.release.signal()
        await sent.wait()
        #expect(parked, "the stream never waited: \(queued) actions queued")
        #expect(queued <= _ReducerEngine<SRStream>.effectQueueLimit)
        #expect(await rdEventually(10_000_000) { store.currentState.ticks == 5_000 })
    }

    @Test("a continuation that floods the queue stops the program with a message naming the store")
    func aFloodingContinuationFails() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = ReducerStore(
                    reducer: SRStream(ticks: 0, readyAfter: 0), initialState: SRStream.State(), name: "flooded")
                store.send(.flood)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("flooded's action queue holds \(SRStream.queueBound) actions"), "\(message)")
    }
}

/// Runs `body` on a new thread; returns (suspended meanwhile) when it has finished.
func onNewThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            body()
            finished.resume()
        }
    }
}
