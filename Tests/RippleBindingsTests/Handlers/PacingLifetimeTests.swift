import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

@Suite struct PacingLifetimeTests {
    @Test("releasing a property with an edit waiting writes it and stops the timer")
    func releaseStopsTimer() async {
        let clock = TestClock()
        let query = Stored("")
        var field: FakeField?
        do {
            let (f, property, _) = bound(.identity.throttle(for: .milliseconds(10), clock: clock), to: query)
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
        let (field, property, _) = bound(.identity.throttle(for: .milliseconds(10), clock: clock), to: a)
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

    @Test(
        "cancelling a two-way binding's subscription ends it: edits stop reaching the model, the model stops reaching the control"
    )
    func cancellingTheSubscriptionEndsTheBinding() {
        let query = Stored("")
        let (field, property, subscription) = bound(to: query)
        field.type("a")
        #expect(query.value == "a")
        subscription.cancel()
        #expect(!property.isBound)
        #expect(subscription.isCancelled)
        field.type("ab")
        #expect(query.value == "a")
        query.value = "model"
        #expect(field.text == "ab")
    }

    @Test("cancelling a paced two-way binding's subscription writes the waiting edit and stops its timer")
    func cancellingAPacedBindingFlushesIt() async {
        let clock = TestClock()
        let query = Stored("")
        let (field, property, subscription) = bound(.identity.debounce(for: .milliseconds(10), clock: clock), to: query)
        field.type("a")
        #expect(await eventually { clock.sleeperCount == 1 })
        subscription.cancel()
        #expect(query.value == "a")
        #expect(await eventually { clock.sleeperCount == 0 })
        field.type("ab")
        await clock.advance(by: .milliseconds(20))
        #expect(query.value == "a")
        withExtendedLifetime(property) {}
    }

    @Test("a binding whose subscription is dropped stays in place, and unbinding or binding again cancels it")
    func aDroppedSubscriptionKeepsTheBinding() {
        let first = Stored("")
        let second = Stored("")
        let field = FakeField()
        let property = editableProperty(of: field)
        property.bind(first)
        field.type("a")
        #expect(first.value == "a")
        let subscription = property.bind(second)
        #expect(property.isBound)
        property.unbind()
        #expect(subscription.isCancelled)
        #expect(!property.isBound)
    }
}
