import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

@Suite struct PacingReviewTests {
    private func bound(_ handler: BindingHandler<String, String>, to model: Stored<String>) -> (FakeField, TwoWayBindableProperty<String>) {
        let field = FakeField()
        let property = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
        field.onChange = { [weak property] in property?.userDidEdit() }
        property.bind(model, handler)
        return (field, property)
    }

    @Test("releasing a property with an edit waiting writes it and stops the timer")
    func releaseStopsTimer() async {
        let clock = TestClock()
        let query = Stored("")
        var field: FakeField?
        do {
            let (f, property) = bound(.identity.throttle(for: .milliseconds(10), clock: clock), to: query)
            field = f
            f.type("a")
            #expect(await eventually { clock.sleeperCount == 1 })
            withExtendedLifetime(property) {}
        }
        #expect(query.value == "a")
        #expect(await eventually { clock.sleeperCount == 0 })
        withExtendedLifetime(field) {}
    }

    @Test("binding again writes the waiting edit to the old model; the new binding has its own timer")
    func rebind() async {
        let clock = TestClock()
        let a = Stored(""), b = Stored("")
        let (field, property) = bound(.identity.throttle(for: .milliseconds(10), clock: clock), to: a)
        field.type("1")
        property.bind(b, .identity.throttle(for: .milliseconds(10), clock: clock))
        #expect(a.value == "1")
        #expect(field.text == "")
        field.type("2")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        #expect(await eventually { b.value == "2" })
        #expect(a.value == "1")
    }
}
