import Ripple
import Testing
@testable import RippleModels

@Suite("Bindings")
struct BindingTests {
    /// DidUpdate's `@ValueProxy`: a child that edits a value it does not own.
    final class Stepper: @unchecked Sendable {
        @ValueBinding var count: Int
        init(count: ValueBinding<Int>) { _count = count }
        func increment() { count += 1 }
    }

    final class Holder: @unchecked Sendable {
        @ObservedModel var viewModel = ViewModel()
    }

    @Test("a binding reads and writes through the model, and its didSet runs")
    func bindingWritesThroughModel() {
        let model = ViewModel()
        let count = model.bindings.count
        count.value = 3
        #expect(model.count == 3)
        #expect(model.didSetCount.all == [3])
        model.count = 5
        #expect(count.value == 5)
    }

    @Test("an assignment made inside a reaction runs the setter after the round: didSet reads the new value")
    func assignmentInsideAReaction() {
        let model = ViewModel()
        let count = model.bindings.count
        let trigger = Stored(0)
        let reaction = observe {
            let value = trigger.value
            if value > 0 {
                count.value = value * 10
            }
        }
        withExtendedLifetime(reaction) {
            trigger.value = 2
        }
        #expect(model.count == 20)
        #expect(model.didSetCount.all == [20])
    }

    @Test("$model.property from @ObservedModel is a ValueBinding, and @ValueBinding edits through it")
    func projectedBindingAndPropertyWrapper() {
        let holder = Holder()
        let stepper = Stepper(count: holder.$viewModel.count)
        stepper.increment()
        stepper.increment()
        #expect(holder.viewModel.count == 2)
        #expect(stepper.$count.value == 2)
        #expect(holder.viewModel.didSetCount.all == [1, 2])
    }

    @Test("key paths project bindings: $model.frame.size.width is a ValueBinding<Double>")
    func keyPathProjection() {
        let model = ViewModel()
        let width: ValueBinding<Double> = model.bindings.frame.size.width
        let widths = Log<Double>()
        let observer = width.didChange { widths.append($0) }
        width.value = 4
        model.bindings.frame.x.value = 9  // width unchanged
        model.frame.size.width = 6
        #expect(model.frame == Frame(x: 9, size: Size(width: 6, height: 0)))
        #expect(widths.all == [4, 6])
        let isWide: ReadOnlyBinding<Bool> = width.map { $0 > 5 }
        #expect(isWide.value)
        let nameIsEmpty: ReadOnlyBinding<Bool> = model.bindings.name.isEmpty
        #expect(nameIsEmpty.value)
        _ = observer
    }

    @Test("a binding is tracked by Computed and observe like its source")
    func bindingIsTracked() {
        let model = ViewModel()
        let width = model.bindings.frame.size.width
        let area = Computed { width.value * 2 }
        let seen = Log<Double>()
        let reaction = observe { seen.append(area.value) }
        width.value = 2
        model.frame.size.height = 1  // area unchanged
        #expect(seen.all == [0, 4])
        reaction.cancel()
    }

    @Test("a binding to a Stored applies read-modify-writes atomically, even inside a reaction")
    func storedBindingUpdates() {
        let stored = Stored(0)
        let binding = stored.binding
        let trigger = Stored(0)
        let reaction = observe {
            if trigger.value == 1 {
                binding.update { $0 += 1 }
                binding.update { $0 += 1 }
            }
        }
        trigger.value = 1
        #expect(stored.value == 2)
        binding.update { $0 *= 10 }
        #expect(stored.value == 20)
        reaction.cancel()
    }

    @Test("a custom binding from get and set, and a constant binding")
    func customAndConstant() {
        let celsius = Stored(100.0)
        let fahrenheit = ValueBinding(get: { celsius.value * 9 / 5 + 32 }, set: { celsius.value = ($0 - 32) * 5 / 9 })
        #expect(fahrenheit.value == 212)
        fahrenheit.value = 32
        #expect(celsius.value == 0)
        let constant = ValueBinding.constant(7)
        constant.value = 8
        #expect(constant.value == 7)
    }

    @Test("a weak binding does not keep its model; once it is gone, reads fall back and writes are ignored")
    func weakBinding() {
        var model: ViewModel? = ViewModel()
        weak let weakModel = model
        let count = ValueBinding(weak: model!, \.count, ifReleased: -1)
        count.value = 4
        #expect(model?.count == 4)
        model = nil
        #expect(weakModel == nil)
        #expect(count.value == -1)
        count.value = 5
        #expect(count.value == -1)
    }

    @Test("an externally updating handle does not echo its own writes to its own handlers")
    func externallyUpdating() {
        let model = ViewModel()
        let field = model.bindings.name.externallyUpdating()
        let fieldHeard = Log<String>()
        let othersHeard = Log<String>()
        let bag = SubscriptionBag {
            field.didUpdate { fieldHeard.append($0) }
            model.bindings.name.didUpdate { othersHeard.append($0) }
        }
        field.value = "typed"  // own write
        model.name = "external"  // someone else
        field.value = "typed again"
        field.value = "typed again"  // own equal write
        model.name = "external"  // equal external write
        #expect(fieldHeard.all == ["external", "external"])
        #expect(othersHeard.all == ["typed", "external", "typed again", "typed again", "external"])
        #expect(field.value == "external")
        _ = bag
    }

    @Test(
        "read-modify-writes through a model binding inside a handler are queued whole: none is lost, didSet sees each value"
    )
    func modelBindingUpdatesInsideHandler() {
        let model = ViewModel()
        let trigger = Stored(0)
        let count = model.bindings.count
        let reaction = trigger.didChange { _ in
            count.update { $0 += 1 }
            count.value += 1  // read now, written later: see below
            count.update { $0 += 1 }
        }
        trigger.value = 1
        // `count.value += 1` reads the committed 0 now and queues a write of 1: plain
        // assignment is a write, not a read-modify-write. The two updates apply in order.
        #expect(model.count == 2)
        #expect(model.didSetCount.all == [1, 1, 2])
        _ = reaction
    }

    @Test("an externally updating handle still hears a write from elsewhere in the same batch")
    func externallyUpdatingHearsCoalescedWrites() {
        let model = ViewModel()
        let field = model.bindings.name.externallyUpdating()
        let heard = Log<String>()
        let observer = field.didUpdate { heard.append($0) }
        batch {
            field.value = "typed"
            model.name = "external"
        }
        #expect(heard.all == ["external"])
        batch {
            model.name = "other"
            field.value = "typed last"
        }
        #expect(heard.all == ["external"], "the last write was the handle's own")
        _ = observer
    }
}
