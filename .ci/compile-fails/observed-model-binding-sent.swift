// main-actor-module
// expect-error: main actor-isolated property 'value' can not be mutated from a nonisolated context
// `$model.count` through `@ObservedModel`, for a main-actor model: written from another thread,
// the binding would run the property's main-actor `didSet` off the main actor.
import RippleModels

final class Counter: ObservableModel {
    @Observed var count = 0 {
        didSet { print("didSet", count) }
    }
}

final class CounterView {
    @ObservedModel var model = Counter()

    func leak() {
        let count = $model.count
        Task.detached { count.value = 1 }
    }
}
