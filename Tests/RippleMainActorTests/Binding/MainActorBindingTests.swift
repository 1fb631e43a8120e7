import Ripple
import RippleModels
import Testing

// Compiled with main-actor default isolation (see Package.swift): the models, the views and
// the tests are on the main actor without saying so, and their bindings are main-actor
// bindings (the compiler refuses to hand them to another thread: see .ci/compile-fails).

struct Frame: Equatable {
    var width = 0.0
    var height = 0.0
}

/// A main-actor model with observers on its properties.
final class Canvas: ObservableModel {
    @Observed var count = 0 {
        didSet { didSets.append(count) }
    }
    @Observed var frame = Frame() {
        didSet { relayouts += 1 }
    }
    private(set) var didSets: [Int] = []
    private(set) var relayouts = 0
}

/// Edits a value it does not own, through the property wrapper.
final class Stepper {
    @MainActorValueBinding var value: Int

    init(value: MainActorValueBinding<Int>) {
        _value = value
    }

    func increment() { value += 1 }
}

/// Holds its model and binds to it with `$model`.
final class CanvasView {
    @ObservedModel var model = Canvas()
    lazy var stepper = Stepper(value: $model.count)
}

@Suite("Bindings to a main-actor model's properties")
struct MainActorBindingTests {
    @Test("model.bindings reads and writes through the property, and its didSet runs")
    func readsAndWrites() {
        let canvas = Canvas()
        let count: MainActorValueBinding<Int> = canvas.bindings.count
        #expect(count.value == 0)
        count.value = 2
        #expect(canvas.count == 2)
        count.value += 1
        count.update { $0 *= 10 }
        #expect(canvas.count == 30)
        canvas.count = 31
        #expect(count.value == 31)
        #expect(canvas.didSets == [2, 3, 30, 31])
    }

    @Test("a key-path projection reads and writes a part of the property")
    func projection() {
        let canvas = Canvas()
        let width = canvas.bindings.frame.width
        width.value = 4
        #expect(canvas.frame == Frame(width: 4, height: 0))
        #expect(canvas.relayouts == 1)
        canvas.frame.width = 5
        #expect(width.value == 5)
    }

    @Test("reads through a binding are tracked by main-actor derived values and reactions")
    func tracked() {
        let canvas = Canvas()
        let count = canvas.bindings.count
        let doubled = MainActorComputed { count.value * 2 }
        var seen: [Int] = []
        let reaction = observeOnMainActor { seen.append(count.value) }
        canvas.count = 3
        count.value = 4
        #expect(doubled.value == 8)
        #expect(seen == [0, 3, 4])
        reaction.cancel()
    }

    @Test("@ObservedModel's $model and the property wrapper bind two ways")
    func twoWay() {
        let view = CanvasView()
        view.stepper.increment()
        view.stepper.increment()
        #expect(view.model.count == 2)
        view.model.count = 7
        #expect(view.stepper.value == 7)
        #expect(view.model.didSets == [1, 2, 7])
    }

    @Test("a Sendable ValueBinding becomes a main-actor binding; constant ignores writes")
    func conversions() {
        let stored = Stored(1)
        let binding = MainActorValueBinding(stored.binding)
        binding.value += 1
        #expect(stored.value == 2)
        let constant = MainActorValueBinding.constant(5)
        constant.value = 6
        #expect(constant.value == 5)
    }

    @Test("an assignment made inside a reaction runs the setter after the round: didSet reads the new value")
    func assignmentInsideAReaction() {
        let canvas = Canvas()
        let count = canvas.bindings.count
        let trigger = Stored(0)
        let reaction = observeOnMainActor {
            let value = trigger.value
            if value > 0 {
                count.value = value * 10
            }
        }
        withExtendedLifetime(reaction) {
            trigger.value = 2
        }
        #expect(canvas.count == 20)
        #expect(canvas.didSets == [20])
    }
}
