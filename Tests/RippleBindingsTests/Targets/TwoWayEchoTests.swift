import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

/// A two-way binding never applies the user's own edit back to the control, wherever the edit
/// is reported from (a batch, a handler), and the control and the model always end up agreeing.
@Suite struct TwoWayEchoTests {
    /// A field bound to a price with a lossy transform: "2.50" reads as 2.5, shown as "2.5".
    private func priceField() -> (FakeField, TwoWayBindableProperty<String>, Stored<Double>) {
        let field = FakeField()
        let property = editableProperty(of: field)
        let price = Stored(1.0)
        property.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }))
        return (field, property, price)
    }

    @Test("an edit reported from inside a batch is not echoed to the control")
    func editInsideBatch() {
        let (field, property, price) = priceField()
        #expect(field.text == "1.0")
        batch { field.type("2.50") }
        #expect(price.value == 2.5)
        #expect(field.text == "2.50", "the user's text was replaced by the model's echo")
        #expect(field.sets == 1)
        withExtendedLifetime(property) {}
    }

    @Test("an edit reported from a subscription's handler is not echoed to the control")
    func editInsideHandler() {
        let (field, property, price) = priceField()
        let trigger = Stored(0)
        let handler = trigger.didChange { _ in field.type("3.50") }
        trigger.value = 1
        #expect(price.value == 3.5)
        #expect(field.text == "3.50", "the user's text was replaced by the model's echo")
        #expect(field.sets == 1)
        withExtendedLifetime((property, handler)) {}
    }

    @Test("a change from elsewhere in the same batch as the edit is still shown")
    func otherWriteInSameBatchIsShown() {
        let (field, property, price) = priceField()
        batch {
            field.type("2.50")
            price.value = 4
        }
        #expect(price.value == 4)
        #expect(field.text == "4.0")
        withExtendedLifetime(property) {}
    }

    @Test("a throttled edit that lands after the model changed elsewhere is shown: control and model agree")
    func throttledEditAfterOutsideChange() async {
        let clock = TestClock()
        let model = Stored("")
        let (field, property, _) = bound(.identity.throttle(for: .milliseconds(100), clock: clock), to: model)
        field.type("a")
        #expect(await eventually { clock.sleeperCount == 1 })
        model.value = "X"  // from elsewhere: the control shows it
        #expect(field.text == "X")
        await clock.advance(by: .milliseconds(100))  // the throttle writes the user's "a"
        #expect(await eventually { model.value == "a" })
        #expect(field.text == model.value, "the control shows \(field.text) while the model holds \(model.value)")
        withExtendedLifetime(property) {}
    }

    /// A value that is not `Equatable`: the binding cannot compare it with what it wrote.
    struct Note: Sendable { var text: String }

    @Test("a value that is not Equatable: after an edit the model refused, a change from elsewhere is shown")
    func refusedEditThenChangeFromElsewhere() {
        let note = Stored(Note(text: "a"))
        // The model refuses an empty text.
        let binding = ValueBinding<Note>(get: { note.value }, set: { if !$0.text.isEmpty { note.value = $0 } })
        let field = FakeField()
        let property = editableProperty(of: field)
        property.bind(binding, .transform({ $0.text }, reverse: { Note(text: $0) }))
        #expect(field.text == "a")
        field.type("")
        #expect(note.value.text == "a")
        #expect(field.text == "", "the user's text stays, as for any edit")
        note.value = Note(text: "b")
        #expect(field.text == "b", "the change from elsewhere was taken for the echo of the user's edit")
        field.type("c")
        #expect(note.value.text == "c")
        #expect(field.text == "c")
        note.value = Note(text: "d")
        #expect(field.text == "d")
        withExtendedLifetime(property) {}
    }
}
