import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

@Suite struct PacingTests {
    @Test("throttle writes the latest edit exactly once, when the interval has passed")
    func throttle() async {
        let clock = TestClock()
        let query = Stored("")
        let writes = Locked<[String]>([])
        let log = query.didUpdate { value in writes.mutate { $0.append(value) } }
        let (field, property, _) = bound(.identity.throttle(for: .milliseconds(100), clock: clock), to: query)

        field.type("r")
        field.type("ri")
        field.type("rip")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(99))
        #expect(writes.value.isEmpty)
        await clock.advance(by: .milliseconds(1))
        #expect(await eventually { writes.value == ["rip"] })
        await clock.advance(by: .seconds(1))
        #expect(writes.value == ["rip"])
        #expect(query.value == "rip")

        // A new window opens with the next edit.
        field.type("ripp")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(100))
        #expect(await eventually { writes.value == ["rip", "ripp"] })
        #expect(field.sets == 1)  // only the initial value: the edits were not echoed
        withExtendedLifetime((log, property)) {}
    }

    @Test("debounce writes once the user pauses; each edit restarts the wait")
    func debounce() async {
        let clock = TestClock()
        let query = Stored("")
        let writes = Locked<[String]>([])
        let log = query.didUpdate { value in writes.mutate { $0.append(value) } }
        let (field, property, _) = bound(.identity.debounce(for: .milliseconds(300), clock: clock), to: query)

        field.type("r")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(200))
        field.type("ri")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(200))
        #expect(writes.value.isEmpty)
        await clock.advance(by: .milliseconds(100))
        #expect(await eventually { writes.value == ["ri"] })
        withExtendedLifetime((log, property)) {}
    }

    @Test("an edit still waiting is written when the binding ends: a user's edit is never dropped")
    func flushOnUnbind() async {
        let clock = TestClock()
        let query = Stored("")
        let (field, property, _) = bound(.identity.debounce(for: .seconds(1), clock: clock), to: query)
        field.type("unsaved")
        property.unbind()
        #expect(query.value == "unsaved")
        await clock.run()
        #expect(query.value == "unsaved")
    }

    @Test("handlers compose by chaining: transforms both ways, then pacing")
    func chaining() async {
        let clock = TestClock()
        let cents = Stored(150)
        let field = FakeField()
        let property = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
        field.onChange = { [weak property] in property?.userDidEdit() }
        let handler = BindingHandler<Int, Double>.transform(
            { Double($0) / 100 }, reverse: { Int(($0 * 100).rounded()) }
        )
        .transform({ "$\($0)" }, reverse: { Double($0.dropFirst()) ?? 0 })
        .debounce(for: .milliseconds(10), clock: clock)
        #expect(handler.isTwoWay)
        property.bind(cents, handler)
        #expect(field.text == "$1.5")
        field.type("$2.25")
        #expect(cents.value == 150)
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        #expect(await eventually { cents.value == 225 })
        #expect(field.text == "$2.25")
    }
}
