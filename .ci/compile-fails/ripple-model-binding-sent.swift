// main-actor-module
// expect-error: main actor-isolated property 'value' can not be mutated from a nonisolated context
// A @RippleModel in a main-actor module is a main-actor model; with state the macro leaves alone
// it is no `SendableModel`, so its bindings are main-actor bindings: written from another
// thread, one would run its main-actor accessors off the main actor.
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
