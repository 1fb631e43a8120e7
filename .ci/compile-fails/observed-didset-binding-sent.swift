// main-actor-module
// expect-error: main actor-isolated property 'value' can not be mutated from a nonisolated context
// A main-actor model's `@Observed` property with a `didSet`: a binding to it, written from
// another thread, would run the main-actor `didSet` off the main actor.
import RippleModels

final class Counter: ObservableModel {
    @Observed var count = 0 {
        didSet { print("didSet", count) }
    }
}

func leak(_ counter: Counter) {
    let count = counter.bindings.count
    Task.detached { count.value = 1 }
}
