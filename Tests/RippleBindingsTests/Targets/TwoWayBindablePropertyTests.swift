import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct TwoWayBindablePropertyTests {
    private func property(_ field: FakeField) -> TwoWayBindableProperty<String> {
        let property = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
        field.onChange = { [weak property] in property?.userDidEdit() }
        return property
    }

    @Test("the control shows the model, and the user's edits reach the model")
    func bothWays() {
        let field = FakeField()
        let text = property(field)
        let name = Stored("Ada")
        text.bind(name)
        #expect(field.text == "Ada")
        field.type("Grace")
        #expect(name.value == "Grace")
        name.value = "Alan"
        #expect(field.text == "Alan")
    }

    @Test("no ping-pong with a lossy transform: the user's text stays, the model is written once")
    func noPingPong() {
        let field = FakeField()
        let text = property(field)
        let price = Stored(1.0)
        let writes = Locked(0)
        let counter = price.didUpdate { _ in writes.mutate { $0 += 1 } }
        text.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }))
        #expect(field.text == "1.0")
        #expect(field.sets == 1)

        field.type("1.50")
        #expect(price.value == 1.5)
        #expect(field.text == "1.50")  // not rewritten to "1.5"
        #expect(field.sets == 1)
        #expect(writes.value == 1)

        field.type("1.500")  // the same model value: nothing happens
        #expect(writes.value == 2)  // an (equal) write, and still no echo
        #expect(field.text == "1.500")
        #expect(field.sets == 1)

        price.value = 2  // a change from elsewhere is shown
        #expect(field.text == "2.0")
        #expect(field.sets == 2)
        withExtendedLifetime(counter) {}
    }

    @Test("a transform that is not an inverse, on a control that reports programmatic changes, does not loop")
    func noLoopWhenControlEchoes() {
        let field = FakeField(reportsProgrammaticChanges: true)
        let text = property(field)
        let count = Stored(0)
        let writes = Locked(0)
        let counter = count.didUpdate { _ in writes.mutate { $0 += 1 } }
        // Shows "n!" and reads back the digits + 1: a round trip would climb forever.
        text.bind(count, .transform({ "\($0)!" }, reverse: { (Int($0.filter(\.isNumber)) ?? 0) + 1 }))
        #expect(field.text == "0!")
        #expect(writes.value == 0)
        count.value = 5
        #expect(field.text == "5!")
        #expect(writes.value == 1)
        field.type("7")
        #expect(count.value == 8)
        #expect(writes.value == 2)
        #expect(field.text == "7")
        withExtendedLifetime(counter) {}
    }

    @Test("a ValueBinding into a model is bound two ways")
    func valueBinding() {
        let field = FakeField()
        let text = property(field)
        let user = Stored(User(name: "Ada", age: 36))
        text.bind(ValueBinding(user).name)
        field.type("Grace")
        #expect(user.value.name == "Grace")
        #expect(user.value.age == 36)
    }

    @Test("bindOneWay shows a value and writes no edit")
    func oneWay() {
        let field = FakeField()
        let text = property(field)
        let title = Computed { "fixed" }
        text.bindOneWay(title)
        #expect(field.text == "fixed")
        field.type("edited")
        #expect(title.value == "fixed")
    }

    @Test("a two-way bind with a one-way handler stops with a message naming the fix")
    func oneWayHandlerIsRefused() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let field = FakeField()
                let text = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
                text.bind(Stored(1), .transform { "\($0)" })
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("has no reverse transform"))
    }
}

struct User: Equatable, Sendable {
    var name: String
    var age: Int
}
