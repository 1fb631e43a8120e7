import Foundation
import Ripple
import RippleStore
import Testing

/// A reducer whose global inputs are given by the test; `.log(x)` appends `x` to the state.
private struct BoundInputs: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable, Sendable { case log(String) }

    let inputs: @Sendable () -> Effect<Action>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .log(let entry): state.log.append(entry); return .none
        }
    }

    func bind() -> Effect<Action> { inputs() }
}

/// The reducer store: the order in which actions from its global inputs are reduced.
@Suite struct GlobalInputsOrderTests {
    /// A reducer's effect `.merge(.create { … }, .send(.a))` reduces `.a` first (what `.send`
    /// sends is reduced right after the action, what `create` sends is queued): the same effect
    /// as a global input must reduce in the same order.
    @Test func globalInputsReduceTheirSendsBeforeWhatACreateSendsAtOnce() {
        let inputs: @Sendable () -> Effect<BoundInputs.Action> = {
            .merge(
                .create { continuation in
                    continuation.send(.log("create"))
                    continuation.finish()
                },
                .send(.log("send"))
            )
        }
        let store = ReducerStore(reducer: BoundInputs(inputs: inputs), initialState: BoundInputs.State())
        #expect(store.currentState.log == ["send", "create"])
    }

    /// `.concat(.send(.a), .run { … })` as a global input: the run's action is reduced after
    /// `.a`, even when the run's task sends before `bind` has finished starting the inputs.
    /// (A `create` that waits for the run's signal holds `bind` at that point.)
    ///
    /// The store is made on a thread of its own, which that `create` blocks: blocking a thread
    /// of the cooperative pool instead could leave the run's task no thread to start on. And
    /// it runs in a process of its own: in the suite's parallel run under ThreadSanitizer,
    /// other tests kept the pool's two threads busy past the `create`'s bound, twice.
    @Test func aGlobalInputsConcatReducesItsFirstStepBeforeTheNext() async {
        await #expect(processExitsWith: .success) {
            let sent = DispatchSemaphore(value: 0)
            let inputs: @Sendable () -> Effect<BoundInputs.Action> = {
                .merge(
                    .concat(
                        .send(.log("first")),
                        .run { send in
                            await send(.log("second"))
                            sent.signal()
                        }
                    ),
                    .create { continuation in
                        // Bounded, in case the run never starts: the order is checked below.
                        _ = sent.wait(timeout: .now() + .seconds(30))
                        continuation.finish()
                    }
                )
            }
            let log = await withCheckedContinuation { (made: CheckedContinuation<[String], Never>) in
                Thread {
                    let store = ReducerStore(reducer: BoundInputs(inputs: inputs), initialState: BoundInputs.State())
                    made.resume(returning: store.currentState.log)
                }.start()
            }
            precondition(log == ["first", "second"], "reduced \(log), expected [\"first\", \"second\"]")
        }
    }
}
