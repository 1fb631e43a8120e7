// main-actor-module
// expect-error: main actor-isolated conformance of 'Counter' to 'ObservableModel' cannot satisfy conformance requirement for a 'Sendable' type parameter
// A @RippleModel in a main-actor module is a main-actor model: a binding to its property,
// written from another thread, would run its main-actor accessors off the main actor.
import RippleMacros

@RippleModel
final class Counter {
    var count = 0
    @RippleIgnored var taps = 0
}

func leak(_ counter: Counter) {
    let count = counter.bindings.count
    Task.detached { count.value = 1 }
}
