import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct BindingSetterTrackingTests {
    @Test("a setter's reads are not dependencies: a change of something else does not apply again")
    func setterReadsAreNotTracked() {
        let unrelated = Stored(0)
        let sets = Locked(0)
        let property = BindableProperty<Int> { _ in
            _ = unrelated.value  // e.g. a view's configure() that reads a theme
            sets.mutate { $0 += 1 }
            return true
        }
        let source = Stored(1)
        property.bind(source)
        #expect(sets.value == 1)
        unrelated.value = 1
        #expect(sets.value == 1, "applied \(sets.value) times for one value of the source")
    }

    @Test("a two-way setter that reads another value does not echo the model over the user's edit")
    func twoWaySetterReadsDoNotEcho() {
        let theme = Stored(0)
        let field = FakeField()
        let property = TwoWayBindableProperty<String>(
            field, get: { $0.text },
            set: { field, text in
                _ = theme.value
                field.set(text)
            })
        field.onChange = { [weak property] in property?.userDidEdit() }
        let price = Stored(1.0)
        property.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }))
        field.type("1.50")
        #expect(price.value == 1.5)
        #expect(field.text == "1.50")
        theme.value = 1  // nothing the binding shows changed
        #expect(field.text == "1.50")
    }
}

@Suite struct TwoWayEditInFlightTests {
    @Test("a user's edit made while a change from elsewhere waits for the scheduler: control and model agree")
    func editOverPendingValue() {
        let manual = ManualScheduler()
        let field = FakeField()
        let property = TwoWayBindableProperty<String>(
            field, on: manual.scheduler, get: { $0.text }, set: { $0.set($1) })
        field.onChange = { [weak property] in property?.userDidEdit() }
        let name = Stored("a")
        property.bind(name)
        manual.runAll()
        #expect(field.text == "a")
        name.value = "b"  // a change from elsewhere, waiting for the scheduler
        field.type("x")  // the user types before it is shown
        #expect(name.value == "x")
        manual.runAll()
        #expect(field.text == name.value, "the control shows \"\(field.text)\", the model holds \"\(name.value)\"")
    }
}
