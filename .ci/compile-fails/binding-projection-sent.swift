// main-actor-module
// expect-error: main actor-isolated property 'value' can not be mutated from a nonisolated context
// A key-path projection of a main-actor model's binding (`model.bindings.frame.width`):
// written from another thread, it would run the property's main-actor `didSet` off the main actor.
import RippleModels

struct Frame: Equatable {
    var width = 0.0
    var height = 0.0
}

final class Layout: ObservableModel {
    @Observed var frame = Frame() {
        didSet { print("relayout", frame) }
    }
}

func leak(_ layout: Layout) {
    let width = layout.bindings.frame.width
    Task.detached { width.value = 4 }
}
